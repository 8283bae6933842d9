// Package orc is lakecat's own columnar decoder for Apache ORC v1 files,
// written from the ORC specification
// (https://orc.apache.org/specification/ORCv1/). It decodes the chosen columns
// of a file stripe by stripe straight into Apache Arrow arrays, without
// per-value boxing.
//
// [Open] reads only the file tail (postscript, footer and metadata) and
// exposes the file schema as a lakecat [schema.Schema] whose field ids come
// from the ORC type attributes "iceberg.id" or "paimon.id"; a file without
// such attributes has no ids ([schema.NoID]). [File.NewBatchReader] decodes
// the leaves of a pruned copy of that schema into Arrow record batches.
//
// # Type mapping
//
// ORC types map to lakecat types as follows (spec section "Type Information"):
//
//	boolean                       boolean
//	tinyint, smallint             tinyint, smallint
//	int, bigint                   int, long (bigint with iceberg.long-type=TIME: time)
//	float, double                 float, double
//	string                        string
//	char(L), varchar(L)           char(L), varchar(L)
//	binary                        binary (iceberg.binary-type=UUID: uuid;
//	                              =FIXED with iceberg.length=L: fixed[L])
//	date                          date
//	decimal(P,S)                  decimal(P,S); P=0 (Hive 0.11 files) → decimal(38,S)
//	timestamp                     timestamp_ns, or timestamp (microseconds) when
//	                              iceberg attributes say so (see below)
//	timestamp with local time zone
//	                              timestamptz_ns, or timestamptz (microseconds)
//	struct, list, map             struct, list ("element"), map ("key", "value")
//	uniontype<T0,…,Tn>            struct<tag: tinyint, field0: T0, …, fieldn: Tn>
//	                              (see below)
//
// A uniontype column (spec section "Union Columns") is read as Trino and
// Spark expose a Hive union: a struct whose optional int8 field "tag"
// ([UnionTagName]) is the index of the variant a row holds and whose
// optional fields "field0" … "fieldN" are the variants, only the tagged one
// set (a null union is a null struct). Not an Arrow dense union: the
// lakecat schema, Iceberg and Paimon have no union kind, and a struct is
// what the engines that read these files show, so a projection, a
// rename-free read schema and every Arrow consumer handle it. Variants take
// their ORC field ids, if any; the tag has none.
//
// ORC stores timestamps with nanosecond precision. A timestamp column without
// Iceberg attributes is reported in nanoseconds so nothing is lost. A column
// with "iceberg.timestamp-unit" = "MICROS", or with an "iceberg.id" and no
// unit attribute (Iceberg wrote micro-second timestamps before the attribute
// existed), is reported in microseconds, and sub-microsecond digits are
// truncated toward negative infinity; "iceberg.timestamp-unit" = "NANOS"
// gives nanoseconds. ORC "timestamp" is a wall-clock value with no zone: it is
// decoded in the writer's time zone from the stripe footer and reported as
// the same wall clock in UTC. ORC "timestamp with local time zone"
// (TIMESTAMP_INSTANT) is an instant and is reported as a UTC instant
// (timestamptz).
//
// A file whose root type is not a struct (allowed by the specification, e.g.
// a file of bare timestamps) is exposed as a schema with one top-level field
// named "_col0" holding the root type.
//
// # Memory
//
// A batch reader decompresses the streams of the projected columns of one
// stripe at a time; peak memory is therefore about the decompressed size of
// the projected columns of the largest stripe plus one batch.
package orc
