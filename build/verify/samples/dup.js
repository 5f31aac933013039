function sumA(list) {
  let total = 0;
  for (const x of list) {
    total += x;
  }
  return total;
}

function sumB(list) {
  let total = 0;
  for (const x of list) {
    total += x;
  }
  return total;
}

console.log(sumA([1, 2]), sumB([3, 4]));
