// Crashes on its third item with an uncaught TypeError thrown in parse (line 5).
function parse(text) {
  const value = Number.parseInt(text, 10);
  if (Number.isNaN(value)) {
    throw new TypeError(`not a number: ${text}`);
  }
  return value * 2;
}

let total = 0;
for (const item of ["1", "2", "x"]) {
  total += parse(item);
}
console.log(total);
