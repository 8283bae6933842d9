// Two more third-party consumers of lakecat's output, checked against the
// expected schema (.ci/consumer/NAME.txt, the format of arrow_consumer.cjs)
// and lakecat's own jsonl of the same table:
//
//   node consumers.cjs STREAM.arrows FILE.parquet ROWS.jsonl EXPECT.txt
//
// nodejs-polars reads the Arrow IPC stream (`cat --format arrow`): its
// dtype of every column (Datetime unit and zone, Decimal precision and
// scale; List or Struct for nested columns, maps being lists of structs),
// the row count and each column's null count. DuckDB (@duckdb/node-api)
// reads the Parquet file (`cat --format parquet`): its type of every
// primitive column (TIMESTAMP against TIMESTAMP WITH TIME ZONE, DECIMAL(p,s)),
// and the aggregates count(*), count(column) and, for integer columns,
// sum(column), against the jsonl. CONSUMERS_DIR names the folder whose
// node_modules holds both. Exit 1 on any difference.
'use strict';
const fs = require('fs');
const { createRequire } = require('module');
const path = require('path');
const req = createRequire(path.join(process.env.CONSUMERS_DIR || process.cwd(), 'x.js'));
const pl = req('nodejs-polars');
const duckdb = req('@duckdb/node-api');

const [streamPath, parquetPath, jsonlPath, expectPath] = process.argv.slice(2);
const name = path.basename(expectPath, '.txt');
let failed = 0;
const fail = (msg) => { console.error(`consumers: ${name}: ${msg}`); failed++; };

// Expected columns: name and the Arrow type string of arrow_consumer.cjs.
const expect = fs.readFileSync(expectPath, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
  const i = l.indexOf(': ');
  return { name: l.slice(0, i), type: l.slice(i + 2).replace(/( arrow\.\w+)?( not null)?( id=\d+)?$/, '') };
});
const rows = fs.readFileSync(jsonlPath, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const nonNull = (col) => rows.filter((r) => r[col] !== null && r[col] !== undefined).length;

const scalar = {
  bool: ['Bool', 'BOOLEAN'], int8: ['Int8', 'TINYINT'], int16: ['Int16', 'SMALLINT'], int32: ['Int32', 'INTEGER'],
  int64: ['Int64', 'BIGINT'], float32: ['Float32', 'FLOAT'], float64: ['Float64', 'DOUBLE'], string: ['String', 'VARCHAR'],
  binary: ['Binary', 'BLOB'], date32: ['Date', 'DATE'], 'time[us]': ['Time', 'TIME'],
};
const units = { ms: 'MS', us: '', ns: '_NS' };
// The polars dtype and DuckDB type an Arrow type string should become
// (null: not compared).
function want(type) {
  if (scalar[type]) return scalar[type];
  let m = /^timestamp\[(\w+)(?:,(\w+))?\]$/.exec(type);
  if (m) return [`Datetime(${m[1]},${m[2] ?? ''})`, m[2] ? 'TIMESTAMP WITH TIME ZONE' : `TIMESTAMP${units[m[1]]}`];
  m = /^decimal\((\d+),(\d+)\)$/.exec(type);
  if (m) return [`Decimal(${m[1]},${m[2]})`, `DECIMAL(${m[1]},${m[2]})`];
  if (type.startsWith('list<') || type.startsWith('map<')) return ['List', null];
  if (type.startsWith('struct<')) return ['Struct', null];
  return [null, null];
}

(async () => {
  // polars, from the Arrow IPC stream.
  const df = pl.readIPCStream(fs.readFileSync(streamPath));
  if (df.height !== rows.length) fail(`polars: ${df.height} rows, jsonl has ${rows.length}`);
  let cols = null;
  try {
    cols = Object.entries(df.schema);
  } catch (e) {
    // nodejs-polars cannot hand a Binary dtype to JS (its own error):
    // the row count is all polars checks then.
    if (!/not supported for JS conversion/.test(String(e))) throw e;
    console.log(`consumers: ${name}: polars: ${e.message}; only its row count is checked`);
  }
  if (cols && cols.length !== expect.length) fail(`polars: ${cols.length} columns, want ${expect.length}`);
  for (const [i, e] of (cols ? expect : []).entries()) {
    const [pw] = want(e.type);
    const [n, dt] = cols[i] ?? ['(none)', ''];
    const got = String(dt).replace(/^DataType\((.*)\)$/, '$1');
    if (n !== e.name) fail(`polars: column ${i} is ${n}, want ${e.name}`);
    if (pw !== null && !(pw === got || (['List', 'Struct'].includes(pw) && got.startsWith(pw + '(')))) fail(`polars: ${e.name}: ${got}, want ${pw} (from ${e.type})`);
    if (n === e.name && df.getColumn(n).nullCount() !== rows.length - nonNull(n)) fail(`polars: ${n}: ${df.getColumn(n).nullCount()} nulls, jsonl has ${rows.length - nonNull(n)}`);
  }
  // DuckDB, from the Parquet file.
  const db = await duckdb.DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const q = async (sql) => (await con.runAndReadAll(sql)).getRowObjects();
  const file = parquetPath.replace(/'/g, "''");
  const types = await q(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
  const quote = (c) => '"' + c.replace(/"/g, '""') + '"';
  const aggs = ['count(*) AS n'];
  for (const [i, e] of expect.entries()) {
    const [, dw] = want(e.type);
    const t = types[i];
    if (!t || t.column_name !== e.name) { fail(`duckdb: column ${i} is ${t && t.column_name}, want ${e.name}`); continue; }
    if (dw !== null && t.column_type !== dw) fail(`duckdb: ${e.name}: ${t.column_type}, want ${dw} (from ${e.type})`);
    aggs.push(`count(${quote(e.name)}) AS c${i}`);
    if (/^int(8|16|32|64)$/.test(e.type)) aggs.push(`sum(${quote(e.name)})::VARCHAR AS s${i}`);
  }
  const [agg] = await q(`SELECT ${aggs.join(', ')} FROM read_parquet('${file}')`);
  if (Number(agg.n) !== rows.length) fail(`duckdb: count(*) ${agg.n}, jsonl has ${rows.length}`);
  for (const [i, e] of expect.entries()) {
    if (agg[`c${i}`] !== undefined && Number(agg[`c${i}`]) !== nonNull(e.name)) fail(`duckdb: count(${e.name}) ${agg[`c${i}`]}, jsonl has ${nonNull(e.name)}`);
    if (agg[`s${i}`] !== undefined) {
      let s = 0n, any = false;
      for (const r of rows) if (r[e.name] !== null && r[e.name] !== undefined) { s += BigInt(r[e.name]); any = true; }
      const wantSum = any ? String(s) : null;
      if (agg[`s${i}`] !== wantSum) fail(`duckdb: sum(${e.name}) ${agg[`s${i}`]}, jsonl gives ${wantSum}`);
    }
  }
  con.closeSync && con.closeSync();
  if (!failed) console.log(`consumers: ${name}: polars (stream) and DuckDB (Parquet file) read ${expect.length} columns, ${rows.length} rows as expected`);
  process.exit(failed ? 1 : 0);
})().catch((e) => { console.error(`consumers: ${name}: ${e.stack || e}`); process.exit(1); });
