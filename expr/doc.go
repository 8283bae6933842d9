// Package expr holds row filters: expressions over columns named by path
// ("region", "addr.zip"), bound to field ids against a read schema, and
// evaluated either exactly on Arrow record batches ([Bound.Select]) or
// conservatively on statistics and constants ([Bound.MayMatch]) to skip
// files, row groups and stripes that cannot hold a matching row.
//
// The semantics are Iceberg's (Iceberg Java Evaluator and
// InclusiveMetricsEvaluator): binding pushes NOT down to the predicates
// (NOT a < 5 is a >= 5, NOT a = 5 is a != 5), and then every predicate is
// true or false, never null. A null value satisfies IS NULL, !=, NOT IN and
// NOT STARTS WITH, and no other predicate. NaN follows IEEE 754: it is
// neither equal to, less nor greater than anything (so a != 1.5 holds for a
// NaN) and is selected with IS NAN; a NaN literal is refused.
//
// The string form ([Parse]) is SQL-like:
//
//	region = 'eu' and ts >= '2024-01-01' and amount > 10.5
//	not (kind in ('a', 'b')) or name starts with 'x' or addr.zip is null
//
// The package does no I/O.
package expr
