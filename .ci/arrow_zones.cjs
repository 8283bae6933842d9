// Reads an Arrow IPC stream on stdin with the apache-arrow npm package (a
// third-party consumer) and checks the unit and zone of timestamp columns.
// Arguments: NAME=UNIT or NAME=UNIT,ZONE, e.g. ts_micro=us ts_tz_micro=us,UTC
// (no zone: a wall-clock timestamp; UTC: an instant). ARROW_JS_DIR names the
// folder whose node_modules holds apache-arrow.
'use strict';
const { createRequire } = require('module');
const path = require('path');
const arrow = createRequire(path.join(process.env.ARROW_JS_DIR || process.cwd(), 'x.js'))('apache-arrow');

const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const table = arrow.tableFromIPC(Buffer.concat(chunks));
  const units = { [arrow.TimeUnit.SECOND]: 's', [arrow.TimeUnit.MILLISECOND]: 'ms', [arrow.TimeUnit.MICROSECOND]: 'us', [arrow.TimeUnit.NANOSECOND]: 'ns' };
  let failed = 0;
  for (const arg of process.argv.slice(2)) {
    const [name, spec] = arg.split('=');
    const [unit, zone = null] = spec.split(',');
    const field = table.schema.fields.find((f) => f.name === name);
    if (!field) {
      console.error(`arrow_zones: no column ${name}`);
      failed++;
      continue;
    }
    const t = field.type;
    const got = arrow.DataType.isTimestamp(t) ? `${units[t.unit]},${t.timezone ?? '(none)'}` : String(t);
    const want = `${unit},${zone ?? '(none)'}`;
    if (got !== want) {
      console.error(`arrow_zones: ${name}: timestamp ${got}, want ${want}`);
      failed++;
    } else {
      console.log(`arrow_zones: ${name}: timestamp[${unit}] zone ${zone ?? 'none'} (${table.numRows} rows)`);
    }
  }
  process.exit(failed ? 1 : 0);
});
