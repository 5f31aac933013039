var path = require('path');
var { readFileSync } = require('fs');

function readName(file) {
  return JSON.parse(readFileSync(path.resolve(file), 'utf8')).name;
}

module.exports = readName;
