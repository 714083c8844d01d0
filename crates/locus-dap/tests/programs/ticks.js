// Runs for a minute, ticking ten times a second: a Node program to attach to.
let ticks = 0;
const timer = setInterval(() => {
  ticks += 1;
  if (ticks > 600) clearInterval(timer);
}, 100);
