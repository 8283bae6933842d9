// Package evolve changes a table's schema safely: it records schema changes
// ([UpdateSchema]), applies them to whatever schema is current at commit
// time ([UpdateSchema.Apply]), checks that data written or read under one
// schema fits another ([CheckWrite], [CheckRead]), and prepares and performs
// commits of the result for Iceberg tables (table metadata, the REST
// CommitTableRequest body, a filesystem table's next metadata file) and for
// Paimon tables (the next schema/schema-N file).
//
// # Field ids
//
// Every new field — an added column, then the fields, list elements, map keys
// and map values inside its type — gets a fresh field id above the table's
// last-column-id (Iceberg table spec, "Schema Evolution": an added field and
// every field nested in it get new ids). Inside a
// struct, the struct's own fields are numbered first, in order, and then the
// fields nested in each of them, so that
//
//	address struct<street string, city string, state string, zip int>
//
// added to a table whose last-column-id is 3 becomes address#4
// struct<street#5, city#6, state#7, zip#8> with last-column-id 8 (case A22).
// The ids a caller puts into an added type are placeholders and are ignored.
// Paimon numbers the fields of a new ROW depth first (each field, then what
// is inside it, before the next field) and gives list elements and map keys
// and values no id; under [Paimon] rules Apply does the same.
//
// # How names in one update are resolved
//
// The changes of one [UpdateSchema] are applied in the order they were
// recorded, each to the result of the ones before it. A path names a column
// by the name it has in the schema the update is applied to (its original
// name), or by the name a rename earlier in the same update gave it, or by
// the name of a column an earlier add created. A path that matches two
// different columns this way (for example "b" after renaming a→b and b→c) is
// refused with [ErrAmbiguous] rather than guessed. So a rename of data to
// data_renamed followed by MoveFirst("data_renamed") moves the renamed column
// (case A23); MoveFirst("data") would move the same column. Java Iceberg
// resolves every path against original names only and PyIceberg resolves
// moves against current and added names only; lakecat accepts both and
// rejects only what is ambiguous.
//
// # Type changes
//
// Which type changes are allowed depends on the table format ([Format]):
// Iceberg's promotions (spec, "Schema Evolution": int→long, float→double,
// decimal(P,S)→decimal(P′,S) with P′>P; in format version 3 also
// date→timestamp, date→timestamp_ns and unknown→any type), the casts Paimon
// accepts, and Hudi's schema-on-read promotions — the reader's rules
// ([Format.Rules], from the project package). An Iceberg type change is
// refused for a partition source column whose transform would give other
// values after the promotion (spec, "Schema Evolution", on promotions of
// partition source fields).
//
// # Commits
//
// [PrepareSchemaUpdate] turns an update into new Iceberg table metadata and
// [SchemaUpdateBody] into the REST catalog's CommitTableRequest.
// [Committer.CommitIceberg] and [Committer.CommitPaimon] (and [Commit], which
// tells the two apart) commit to a table directory: the next metadata file
// (Iceberg) or schema/schema-N+1 (Paimon) is written to a temporary file and
// then linked into place without replacing anything, so that of two writers
// committing the same version exactly one wins; the other loads the new
// state, applies its changes again and retries. All file access goes through
// a [storage.WriteFS]: the local file system or an object store
// (package storage/blob), whose conditional writes give the same guarantee.
package evolve
