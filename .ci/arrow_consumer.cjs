// A third-party consumer of `lakecat cat --format arrow`: reads an Arrow IPC
// stream with the apache-arrow npm package and checks it against lakecat's
// own jsonl of the same table and against an expected schema.
//
//   node arrow_consumer.cjs STREAM.arrows ROWS.jsonl EXPECT.txt   check
//   node arrow_consumer.cjs STREAM.arrows                         print the schema
//
// The schema is one line per top-level column, "name: type", where type
// spells every nested field with its nullability and field id (the
// PARQUET:field_id metadata): int64, decimal(18,2), timestamp[us] (wall
// clock) or timestamp[us,UTC] (instant), struct<a: … id=1, …>, list<…>,
// map<…>; an extension type adds its name (fixed[16] arrow.uuid). Values: the row count, and each column's null count, must equal
// those of the jsonl. ARROW_JS_DIR names the folder whose node_modules
// holds apache-arrow. Exit 1 on any difference.
'use strict';
const fs = require('fs');
const { createRequire } = require('module');
const path = require('path');
const arrow = createRequire(path.join(process.env.ARROW_JS_DIR || process.cwd(), 'x.js'))('apache-arrow');

const units = ['s', 'ms', 'us', 'ns'];
function typeOf(t) {
  const T = arrow.Type;
  switch (t.typeId) {
    case T.Bool: return 'bool';
    case T.Int: return (t.isSigned ? 'int' : 'uint') + t.bitWidth;
    case T.Float: return ['float16', 'float32', 'float64'][t.precision];
    case T.Utf8: case T.LargeUtf8: return 'string';
    case T.Binary: case T.LargeBinary: return 'binary';
    case T.FixedSizeBinary: return `fixed[${t.byteWidth}]`;
    case T.Decimal: return `decimal(${t.precision},${t.scale})`;
    case T.Date: return t.unit === arrow.DateUnit.DAY ? 'date32' : 'date64';
    case T.Time: return `time[${units[t.unit]}]`;
    case T.Timestamp: return `timestamp[${units[t.unit]}${t.timezone ? ',' + t.timezone : ''}]`;
    case T.Struct: return `struct<${t.children.map(field).join(', ')}>`;
    case T.List: return `list<${field(t.children[0])}>`;
    case T.Map: return `map<${t.children[0].type.children.map(field).join(', ')}>`;
    default: return String(t);
  }
}
function field(f) {
  const id = f.metadata.get('PARQUET:field_id');
  const ext = f.metadata.get('ARROW:extension:name');
  return `${f.name}: ${typeOf(f.type)}${ext ? ' ' + ext : ''}${f.nullable ? '' : ' not null'}${id !== undefined ? ' id=' + id : ''}`;
}

const [streamPath, jsonlPath, expectPath] = process.argv.slice(2);
const table = arrow.tableFromIPC(fs.readFileSync(streamPath));
const schema = table.schema.fields.map(field);
if (!jsonlPath) {
  console.log(schema.join('\n'));
  process.exit(0);
}
let failed = 0;
const fail = (msg) => { console.error(`arrow_consumer: ${streamPath}: ${msg}`); failed++; };
const want = fs.readFileSync(expectPath, 'utf8').split('\n').filter((l) => l !== '');
for (let i = 0; i < Math.max(want.length, schema.length); i++) {
  if (schema[i] !== want[i]) fail(`column ${i}: ${schema[i] ?? '(none)'}, want ${want[i] ?? '(none)'}`);
}
const rows = fs.readFileSync(jsonlPath, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
if (rows.length !== table.numRows) fail(`${table.numRows} rows, jsonl has ${rows.length}`);
for (const f of table.schema.fields) {
  const col = table.getChild(f.name);
  const got = col.nullCount;
  const wantNulls = rows.filter((r) => r[f.name] === null || r[f.name] === undefined).length;
  if (got !== wantNulls) fail(`${f.name}: ${got} nulls, jsonl has ${wantNulls}`);
}
if (!failed) console.log(`arrow_consumer: ${path.basename(expectPath)}: ${schema.length} columns, ${table.numRows} rows as expected`);
process.exit(failed ? 1 : 0);
