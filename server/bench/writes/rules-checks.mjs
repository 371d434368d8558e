/**
 * bench/writes/run.ts's in-process figure: µs per publish of the shape check and the rules of a
 * value (argv[2]: `{ rules, bare, fields }`), with declarations `rules` and `bare`; the median of 5
 * runs of 2,000 after one not counted. Plain node on the build (`npm run build` first), as the server runs.
 */
import { checkPublish, checkWrite, declarationsOf } from '../../dist/modules/definitions/index.js';

const { rules, bare, fields } = JSON.parse(process.argv[2]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(declared) {
  const decls = declarationsOf(JSON.stringify(declared));
  const runs = [];
  for (let r = 0; r < 6; r++) {
    const t = performance.now();
    for (let i = 0; i < 2000; i++) {
      const written = checkWrite(decls, fields, 'body.fields');
      const published = checkPublish(decls, fields);
      if (written.problems.length + published.problems.length > 0) throw new Error('the body breaks a rule');
    }
    if (r > 0) runs.push(((performance.now() - t) * 1000) / 2000);
  }
  return +median(runs).toFixed(1);
}
// Alternating, so neither is always measured on a warmer JIT.
const a = [];
const b = [];
for (let k = 0; k < 3; k++) {
  a.push(time(rules));
  b.push(time(bare));
}
process.stdout.write(JSON.stringify({ rules: median(a), bare: median(b) }));
