package paimon

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/internal/avrorec"
)

// SimpleStats are the statistics of a set of columns of one data file, as
// a manifest entry stores them (Paimon's SimpleStats: _MIN_VALUES and
// _MAX_VALUES BinaryRows with one field per column, and _NULL_COUNTS).
type SimpleStats struct {
	// Min and Max are the serialized BinaryRows of the columns' smallest
	// and largest values (a null field: not recorded); empty when the
	// manifest has none.
	Min, Max []byte
	// NullCounts are the columns' null counts, -1 where not recorded; nil
	// when the manifest has none.
	NullCounts []int64
}

// decodeSimpleStats reads the SimpleStats record key of a _FILE record;
// a missing or malformed one reads as no statistics (a file without
// statistics may match any filter).
func decodeSimpleStats(m map[string]any, key string) SimpleStats {
	r, _ := m[key].(map[string]any)
	if r == nil {
		return SimpleStats{}
	}
	g := avrorec.Getter{M: r}
	out := SimpleStats{Min: g.Bytes("_MIN_VALUES"), Max: g.Bytes("_MAX_VALUES")}
	arr, _ := avrorec.Unwrap(r["_NULL_COUNTS"]).([]any)
	if arr != nil {
		out.NullCounts = make([]int64, len(arr))
		for i, x := range arr {
			n := avrorec.Getter{M: map[string]any{"n": x}}
			v, ok := n.Num("n")
			if !ok || n.Err != nil || v < 0 {
				v = -1
			}
			out.NullCounts[i] = v
		}
	}
	if g.Err != nil {
		return SimpleStats{}
	}
	return out
}

// statsColumn is one column's decoded statistics under its file's schema.
type statsColumn struct {
	field    *schema.Field // the column in the file's schema
	min, max any           // nil: not recorded
	nulls    int64         // -1: not recorded
}

// decodeStatsColumns decodes st for the columns cols of the file's schema
// (in the stats' order). It returns nil when the rows cannot be decoded:
// no rows, a wrong arity, or a type DecodeBinaryRow does not read with a
// value set (nested columns, whose bounds Paimon leaves null, decode).
func decodeStatsColumns(st SimpleStats, cols []*schema.Field) []statsColumn {
	types := make([]schema.Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	out := make([]statsColumn, len(cols))
	for i, c := range cols {
		out[i] = statsColumn{field: c, nulls: -1}
		if len(st.NullCounts) == len(cols) {
			out[i].nulls = st.NullCounts[i]
		}
	}
	if len(cols) == 0 {
		return out
	}
	mins, err1 := DecodeBinaryRow(st.Min, types)
	maxs, err2 := DecodeBinaryRow(st.Max, types)
	if err1 == nil && err2 == nil {
		for i := range out {
			out[i].min, out[i].max = mins[i], maxs[i]
		}
	}
	return out
}

// ValueStats returns the statistics of data file f's columns from its
// manifest entry's value statistics (_VALUE_STATS), keyed by the field ids
// of read (the scan's read schema), for [expr.Bound.MayMatch]. The rules,
// after Paimon Java's SimpleStatsEvolution:
//
//   - The statistics are under the schema f was written with (schema-N of
//     its schema id): _VALUE_STATS_COLS null covers every column of that
//     schema in order, otherwise only the columns it names, in its order.
//     A read column is found in them by field id, so a renamed column
//     reads its own statistics.
//   - A bound is converted from the file's type to the read type where the
//     promotion keeps its order ([expr.PromoteBound]: a wider integer,
//     float to double, a wider decimal of the same scale); after any other
//     type change (Paimon's casts, which may turn values into nulls) the
//     column's statistics are unknown, null count included.
//   - A top-level read column the file's schema lacks (added later) is
//     null in every row of f: its statistics are that constant.
//   - Under stats-mode truncate(N) ("metadata.stats-mode",
//     "fields.<column>.stats-mode", default truncate(16)) a string or
//     binary lower bound is a prefix, a bound still; an upper bound of N
//     or more characters (bytes) may have been cut and is not used.
//   - none and counts modes store no bounds (null fields): unknown.
//
// The caller decides which files value statistics may prune: they
// describe the rows as stored, so only files read as stored — append
// tables, deletion-vector reads, and a primary-key section of one file
// that needs no merge (no file of its bucket overlaps its key range, it
// holds no retracts, the engine is not aggregation). This follows Paimon
// Java's KeyValueFileStoreScan, which filters a bucket's files one by one
// by value statistics only when they do not overlap (one file, or all on
// one level ≥ 1); for overlapping files it keeps or drops the whole bucket
// (never under partial-update or aggregation without deletion vectors),
// which lakecat does not do: a merged section is never pruned by value
// statistics.
func (s *Scan) ValueStats(ctx context.Context, f *DataFile, read *schema.Schema) expr.StatsFunc {
	ps, err := s.Table.Schema(ctx, f.Branch, f.SchemaID)
	if err != nil {
		return nil
	}
	cols := ps.Fields
	if !f.ValueStatsAllCols {
		cols = make([]*schema.Field, 0, len(f.ValueStatsCols))
		for _, n := range f.ValueStatsCols {
			c := findTop(ps.Fields, n)
			if c == nil {
				return nil // names a column its schema lacks: not trusted
			}
			cols = append(cols, c)
		}
	}
	stats := decodeStatsColumns(f.ValueStats, cols)
	return s.statsFunc(ps, f, read, stats, true)
}

// KeyStats returns the statistics of data file f's trimmed primary key
// columns from its manifest entry's key statistics (_KEY_STATS: one field
// per trimmed primary key column of the file's schema, in primary-key
// order), keyed by the field ids of read; every other column is unknown.
// Bounds are converted as in [Scan.ValueStats].
//
// Unlike value statistics, key statistics may prune any file of a
// primary-key table, merged or not, as Paimon Java's KeyValueFileStoreScan
// applies its key filter to every file: a merge combines only rows of one
// key, so the merged row of a key no row of f can have is not f's, and
// the filter's conditions on key columns alone rule it out (conditions on
// other columns are unknown here, so they never do).
func (s *Scan) KeyStats(ctx context.Context, f *DataFile, read *schema.Schema) expr.StatsFunc {
	ps, err := s.Table.Schema(ctx, f.Branch, f.SchemaID)
	if err != nil || len(ps.PrimaryKeys) == 0 {
		return nil
	}
	key, err := trimmedKey(ps)
	if err != nil {
		return nil
	}
	stats := decodeStatsColumns(f.KeyStats, key)
	return s.statsFunc(ps, f, read, stats, false)
}

// statsFunc serves stats (columns of ps) by read field id. With lacking, a
// top-level user column of read that ps lacks is the constant null.
func (s *Scan) statsFunc(ps *schema.PaimonSchema, f *DataFile, read *schema.Schema, stats []statsColumn, lacking bool) expr.StatsFunc {
	readTop := map[int]*schema.Field{}
	user := map[int]bool{}
	if s.Schema != nil {
		for _, c := range s.Schema.Fields {
			user[c.ID] = true
		}
	}
	for _, c := range read.Fields {
		if user[c.ID] {
			readTop[c.ID] = c
		}
	}
	inFile := map[int]bool{}
	for _, c := range ps.Fields {
		inFile[c.ID] = true
	}
	byID := map[int]*statsColumn{}
	for i := range stats {
		byID[stats[i].field.ID] = &stats[i]
	}
	rows := f.RowCount
	return func(id int) (expr.Stats, bool) {
		rf := readTop[id]
		if rf == nil {
			return expr.Stats{}, false
		}
		if !inFile[id] {
			if !lacking || rows < 0 {
				return expr.Stats{}, false
			}
			if _, ok := f.Partition[id]; ok {
				return expr.Stats{}, false // partition values prune elsewhere
			}
			return expr.ConstantStats(nil, rows), true
		}
		c := byID[id]
		if c == nil {
			return expr.Stats{}, false
		}
		st := expr.Stats{Rows: rows, Nulls: c.nulls, NaNs: -1}
		if rows < 0 {
			st.Rows = -1
		}
		from, ok1 := c.field.Type.(schema.PrimitiveType)
		to, ok2 := rf.Type.(schema.PrimitiveType)
		if ok1 != ok2 || (ok1 && !widens(from, to)) || (!ok1 && c.field.Type.Kind() != rf.Type.Kind()) {
			// Another type change (Paimon's casts): a cast may make
			// values null, so not even the null count holds.
			return expr.Stats{}, false
		}
		if ok1 {
			n := truncateLength(ps, c.field.Name, f.Level)
			st.Lower, _ = expr.PromoteBound(c.min, from, to)
			if mx := c.max; n <= 0 || !maybeTruncated(mx, n) {
				st.Upper, _ = expr.PromoteBound(mx, from, to)
			}
		}
		if st.Nulls < 0 && st.Lower == nil && st.Upper == nil {
			return expr.Stats{}, false
		}
		return st, true
	}
}

// widens reports whether reading a column of type from as type to keeps
// every value, its nullness and its order: the same type (a decimal of
// the same scale), strings of any kind, a wider integer, float to double.
func widens(from, to schema.PrimitiveType) bool {
	if from.K == to.K {
		return from.K != schema.KindDecimal || from.Scale == to.Scale
	}
	str := func(k schema.Kind) bool {
		return k == schema.KindString || k == schema.KindChar || k == schema.KindVarchar
	}
	if str(from.K) && str(to.K) {
		return true
	}
	rank := map[schema.Kind]int{schema.KindTinyInt: 1, schema.KindSmallInt: 2, schema.KindInt: 3, schema.KindLong: 4}
	if rank[from.K] > 0 && rank[to.K] > rank[from.K] {
		return true
	}
	return from.K == schema.KindFloat && to.K == schema.KindDouble
}

// maybeTruncated reports whether a string or binary bound v may have been
// cut to n characters (bytes).
func maybeTruncated(v any, n int) bool {
	switch x := v.(type) {
	case string:
		return utf8.RuneCountInString(x) >= n
	case []byte:
		return len(x) >= n
	}
	return false
}

// truncateLength returns N when column col's statistics were collected in
// stats mode truncate(N) under ps's options — "fields.<col>.stats-mode",
// then "metadata.stats-mode.per.level" ("<level>:<mode>,…") for a file of
// level, then "metadata.stats-mode", default truncate(16) (Paimon's
// CoreOptions) — and 0 for full, counts and none. A mode it cannot parse
// counts as truncate(16): its bounds are never trusted further than that.
func truncateLength(ps *schema.PaimonSchema, col string, level int) int {
	mode, ok := ps.Options["fields."+col+".stats-mode"]
	if !ok {
		if per, ok2 := ps.Options["metadata.stats-mode.per.level"]; ok2 {
			for _, part := range strings.Split(per, ",") {
				l, m, found := strings.Cut(strings.TrimSpace(part), ":")
				if found && strings.TrimSpace(l) == strconv.Itoa(level) {
					mode, ok = strings.TrimSpace(m), true
				}
			}
		}
	}
	if !ok {
		mode, ok = ps.Options["metadata.stats-mode"]
	}
	if !ok {
		return 16
	}
	m := strings.ToLower(strings.TrimSpace(mode))
	switch m {
	case "full", "counts", "none":
		return 0
	}
	if inner, found := strings.CutPrefix(m, "truncate("); found {
		if num, found := strings.CutSuffix(inner, ")"); found {
			if n, err := strconv.Atoi(strings.TrimSpace(num)); err == nil && n > 0 {
				return n
			}
		}
	}
	return 16
}
