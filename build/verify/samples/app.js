var unused = 1
function greet(name) { if (name == 'x') { return 'hi ' + name } return 'hello ' + name }
console.log(greet('world'))
setTimeout(() => {}, 100)
