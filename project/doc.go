// Package project aligns record batches decoded from one data file with a
// table's read schema.
//
// [NewPlan] compares the file's schema with the read schema, field id by
// field id at every nesting level (never by name, position or Arrow type),
// and decides for every read field one action: take the file column (a
// rename or a reorder is a new Arrow schema over the same arrays), promote it
// (int→long, float→double, decimal precision, …), fill nulls (an optional
// field the file lacks), fill the field's initial-default, fill a constant
// (identity-partition values from [Options.Constants]), or rebuild a struct,
// list or map around its children. Errors — a required field missing, a type
// change the table format does not allow — are found here, before any
// decoding. [Plan.FileProjection] is the pruned file schema a decoder must
// produce; [Plan.Apply] runs the plan on each decoded record batch;
// [Plan.Explain] says in words what the read does for each field.
//
// # Required read fields over optional file data
//
// A required read field whose file field is optional is read (writers such
// as Hudi's and some Parquet writers mark every column optional), and the
// first null met fails the batch with a *[ValueError] matching
// [ErrNullInRequiredField] that names the file, the field id and the row.
// Iceberg Java refuses such a read before reading anything; lakecat reads
// what conforms, so a table whose data has no nulls reads, and never puts a
// null into a non-nullable Arrow field, which consumers trust.
//
// The package knows no file format: it sees only the file schema and Arrow
// arrays laid out as [schema.ToArrowSchema] of [Plan.FileProjection].
//
// # Promotion rules
//
// Each table format allows its own type changes between the type a data file
// was written with and the type the read schema asks for; [Rules] is one
// value per format. In the table, ✓ means the read is allowed, "cast" that
// values are converted and a value that does not fit fails the batch with a
// *[ValueError], and an empty cell that [NewPlan] refuses the change with
// [ErrIncompatibleType].
//
//	file type → read type                          IcebergV2  IcebergV3  Hudi   Paimon
//	same type; char/varchar/string among them      ✓          ✓          ✓      ✓
//	tinyint/smallint/int → wider integer           ✓          ✓          ✓      ✓
//	float → double; float16 → float, double        ✓          ✓          ✓      ✓
//	decimal(P,S) → decimal(P′,S), P′ ≥ P           ✓          ✓          ✓      ✓
//	fixed[16] → uuid (other lengths refused)       ✓          ✓          ✓      ✓
//	unknown → any type (all nulls)                            ✓
//	date → timestamp, timestamp_ns                            ✓                 ✓
//	date → timestamptz, timestamptz_ns                                          ✓
//	int, long → float, double                                            ✓      ✓
//	int, long, float, double → decimal                                   cast   cast
//	decimal(P,S) → decimal(P′,S′), S′ ≥ S,
//	  P′−S′ ≥ P−S (scale grows, e.g. A7)                                 ✓      ✓
//	any other numeric → numeric (narrowing,
//	  decimal scale or precision shrinking)                                     cast
//	boolean ↔ numeric                                                           cast
//	numeric, date, timestamp → string                                    ✓      ✓
//	boolean, time, binary → string                                              ✓
//	string ↔ binary                                                      ✓      ✓
//	string → decimal, date                                               cast   cast
//	string → numeric, boolean, time, timestamp                                  cast
//	timestamp ↔ timestamp (unit, time zone)                                     cast
//	timestamp → date, time; time → timestamp                                    cast
//	timestamp ↔ int, long (seconds since the epoch)                             cast
//
// The table is [Rules.Allows]: what a data file's type is read as. What a
// table may change a column's type to ([Rules.Promotes], which evolve
// commits) is the same set without fixed[16] → uuid, which only a file's
// physical form needs (a writer without the UUID annotation). A map key is
// never converted under any rule ([Rules.AllowsMapKey]): same type, char,
// varchar and string among them, or fixed[16] as uuid.
//
// Sources: Iceberg table spec, "Schema Evolution" (valid type promotions, and
// format version 3's unknown and date promotions); Hudi docs, "Schema
// Evolution" (schema evolution on read, supported type changes); Paimon's
// CastExecutors (the cast rules used when reading files of older schemas).
//
// Under every rule the physical width of a value is the decoder's business: a
// Parquet INT32 annotated INT(8) or INT(16) arrives as tinyint or smallint and
// widens like an int; a decimal stored as INT32, INT64 or a fixed-length byte
// array of any width arrives as decimal128. Cast details: a fraction cast to
// an integer is truncated toward zero (Java); a decimal whose scale shrinks is
// rounded half away from zero; a float cast to string is written as Java's
// Double.toString writes it ("1.5", "1.0E10"); a date or timestamp cast to
// string is ISO-like ("2024-01-02", "2024-01-02 03:04:05.5", UTC); a string
// that does not parse fails with [ErrInvalidValue] (Spark would give null);
// binary→string does not check UTF-8; char and varchar lengths are not
// enforced. Paimon's casts between a wall clock (timestamp) and an instant
// (timestamptz, Paimon's TIMESTAMP WITH LOCAL TIME ZONE) use the session time
// zone of [Rules.WithTimeZone], UTC by default.
//
// # Hot path
//
// Per batch, the plan allocates a number of objects that depends on the
// number of read fields, not rows. int→long, float→double, int→double and
// date→timestamp are single loops over the values buffer; decimal precision
// widening and string↔binary keep the buffers and change only the Arrow type;
// null, default and constant arrays are built once per batch length and
// shared. The values buffers those loops write are taken back from the
// caller when it releases a batch and reused for the next one (a few per
// size, returned to the allocator by [Plan.Release]). When every column
// passes through unchanged Apply only swaps the schema.
package project
