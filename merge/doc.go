// Package merge merges the sorted runs of an LSM tree (a Paimon
// primary-key table's bucket) into one row per key, on Arrow record
// batches. It does no I/O: a [Run] yields record batches, already in one
// common schema (the reader aligns every data file to it by field id, so a
// renamed, reordered or widened key column of an older file reads as the
// current one and compares in the current type).
//
// The rules are Paimon's (Paimon docs, "Primary Key Table": "Merge Engine",
// "Sequence Field"): within a key, records are ordered by the user sequence
// fields (sequence.field), then by _SEQUENCE_NUMBER; the merge engine
// ([Engine]) then turns them into at most one row: deduplicate keeps the
// last, first-row the first, partial-update takes each field's last
// non-null value (or the values of the newest record of a field's sequence
// group), aggregation folds each field with its aggregate function. A
// record's _VALUE_KIND is +I (0), -U (1), +U (2) or -D (3); -U and -D
// retract.
//
// A merge holds at most one batch per run, the batches that rows of the
// batch being built come from, and the current key group. Output rows are
// copied from their source batches with Arrow's take kernel, or sliced
// without copying when they are one stretch of one batch (the common case
// of a key range only one run covers).
package merge
