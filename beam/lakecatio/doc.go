// Package lakecatio is an Apache Beam source for lakecat tables: Iceberg,
// Paimon and Hudi tables read with lakecat's planning and decoders on any
// Beam runner (Prism locally; Flink, Spark and Dataflow through their
// portable job servers).
//
// [Read] splits the scan's planning on one worker into planning units
// (table.Scan.Units: for an Iceberg table one per run of data manifests,
// the manifest list pruned by the filter; a Paimon or Hudi table is one
// unit), reshuffles them, plans each unit's tasks on the workers
// (table/open.UnitTasks, the planning `lakecat cat` uses, one task per
// file: it reads no data file footer), emits each planned table.Task in
// its stable JSON encoding as its own element, reshuffles them across
// workers and reads each with reader.ReadTask. Its output is
// Arrow record batches, one per element, each an Arrow IPC stream (the
// schema message and one record batch) of at most about
// [DefaultMaxBatchBytes] bytes. [ReadRows] decodes them into Go structs.
//
// Each task is read by a splittable DoFn whose restriction is an offset
// range over the task's Parquet row groups or ORC stripes (an Avro file,
// and a merge on read of a Paimon primary-key range or a Hudi file slice,
// is one unit), listed by the worker that reads the file's footer and cut
// there into restrictions of about [SplitBytes]; a runner can split a
// large file further while it is read. The size estimate is the
// compressed bytes of the unread units. The unit reads of one restriction
// share its task's delete files (reader.DeleteCache): each is read once
// per restriction.
//
// The counter row_groups counts ORC stripes too.
//
// Workers reach storage through the same URL schemes as the command line
// (s3://, gs://, azblob://, file://, or local paths), with credentials from
// the worker's environment, or through an FS registered with [RegisterFS].
//
// The Beam counters, in namespace "lakecat": files, row_groups, rows (rows
// emitted), rows_decoded, bytes (bytes read from storage), rows_deleted
// (rows removed by delete files or merges; counted for reads without a
// filter), retries (row groups read again after a transient error) and
// restrictions (restrictions processed: one per task, plus the parts a
// runner split off and the rests handed back for a retry) and
// planning_units (planning units planned).
package lakecatio
