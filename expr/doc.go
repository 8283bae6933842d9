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
// A number literal is compared by its value, however it is spelt: 1e2,
// 100 and 100.0 are one value. On an integer column it must be an integer
// (1.5 and 15e-1 are type errors); on a float or double column it is the
// nearest value of the type (1e-400 is 0). A value beyond the column
// type's range (an integer above 2^63-1 on a long, 1e39 on a float, 1e400
// on a double) binds as Iceberg binds a literal above the type's maximum
// or below its minimum (Iceberg Java Literals: LongLiteral.to(INTEGER)
// and DoubleLiteral.to(FLOAT) give aboveMax and belowMin): = matches no
// row and != every row; an ordering comparison becomes a constant or IS
// NOT NULL on an integer column and, on a float or double, a comparison
// with the greatest finite value M (d < 1e400 is d <= M, d > 1e400 is
// d > M: only +Infinity). Such a literal is not rounded to an infinity
// (as Python's float would read it), so d = 1e400 matches no row,
// +Infinity included. A decimal column takes a literal that fits its
// precision and scale, else it is a type error.
//
// The string form ([Parse]) is SQL-like:
//
//	region = 'eu' and ts >= '2024-01-01' and amount > 10.5
//	not (kind in ('a', 'b')) or name starts with 'x' or addr.zip is null
//
// The package does no I/O.
package expr
