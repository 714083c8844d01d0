function total(items) {
  let acc = 0;
  for (let i = 0; i < items.length; i++) {
    acc += items[i];
    console.log(`iter ${i} acc=${acc}`);
  }
  return acc;
}

const result = total([3, 4, 5]);
process.stderr.write("done\n");
process.exitCode = result % 7;
