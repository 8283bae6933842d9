package parquet

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	pq "github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/schema"
)

// leafNamed returns the top-level field of f named name.
func leafNamed(t *testing.T, f *File, name string) *schema.Field {
	t.Helper()
	fl := f.Schema().FindByName(name, false)
	if fl == nil {
		t.Fatalf("no field %q", name)
	}
	return fl
}

// TestBloomFilterReal reads the bloom filters of parquet-testing's two
// files: parquet-mr's without bloom_filter_length (header read first) and
// parquet-rs's with it (one read).
func TestBloomFilterReal(t *testing.T) {
	dir := realDir(t)
	present := []string{"Hello", "This is", "a", "test", "How", "are you", "doing ", "today", "the quick", "brown fox", "jumps", "over", "the lazy", "dog"}
	absent := []string{"hello", "doing", "", "cat", "fox", "The quick", "lakecat", "Hello "}
	for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "parquet-testing", "data", name))
			if err != nil {
				t.Fatal(err)
			}
			f := openBytes(t, b)
			bf, err := f.BloomFilterOf(0, leafNamed(t, f, "String"))
			if err != nil || bf == nil {
				t.Fatalf("BloomFilterOf: %v, %v", bf, err)
			}
			for _, v := range present {
				if !bf.MayContain(v) {
					t.Errorf("MayContain(%q) = false for a stored value", v)
				}
			}
			for _, v := range absent {
				if bf.MayContain(v) {
					t.Errorf("MayContain(%q) = true", v)
				}
			}
		})
	}
}

type bloomRow struct {
	I32  int32    `parquet:"i32"`
	I64  int64    `parquet:"i64"`
	I8   int8     `parquet:"i8,int(8)"`
	I16  int16    `parquet:"i16,int(16)"`
	U8   uint8    `parquet:"u8,uint(8)"`
	U16  uint16   `parquet:"u16,uint(16)"`
	U32  uint32   `parquet:"u32,uint(32)"`
	U64  uint64   `parquet:"u64,uint(64)"`
	Date int32    `parquet:"date,date"`
	TMs  int32    `parquet:"tms,time(millisecond)"`
	TsMs int64    `parquet:"tsms,timestamp(millisecond)"`
	F    float32  `parquet:"f"`
	D    float64  `parquet:"d"`
	S    string   `parquet:"s"`
	Bin  []byte   `parquet:"bin"`
	Fx   [5]byte  `parquet:"fx"`
	U    [16]byte `parquet:"u,uuid"`
	D32  int32    `parquet:"d32,decimal(2:9)"`
	D64  int64    `parquet:"d64,decimal(3:18)"`
	DF   [6]byte  `parquet:"df,decimal(2:13)"`
}

var bloomColumns = []string{"i32", "i64", "i8", "i16", "u8", "u16", "u32", "u64", "date", "tms", "tsms", "f", "d", "s", "bin", "fx", "u", "d32", "d64", "df"}

func bloomRows() []bloomRow {
	var rows []bloomRow
	for i := 1; i <= 40; i++ {
		r := bloomRow{
			I32: int32(i * 7), I64: int64(i) << 40, I8: int8(-i), I16: int16(i * 300),
			U8: uint8(200 + i), U16: uint16(60000 + i), U32: uint32(4_000_000_000 + i), U64: uint64(1)<<62 + uint64(i),
			Date: int32(19000 + i), TMs: int32(i * 1000), TsMs: int64(1_700_000_000_000 + i),
			F: float32(i) + 0.5, D: float64(i) + 0.25, S: "s" + itoa(int64(i)), Bin: []byte{byte(i), 0, byte(i)},
			D32: int32(-i * 11), D64: int64(i) * 1_000_000_007,
		}
		copy(r.Fx[:], "fx"+itoa(int64(i)))
		r.U[15] = byte(i)
		r.DF[5] = byte(i)
		r.DF[0] = 0x80 // negative: sign extension checked
		rows = append(rows, r)
	}
	return rows
}

// bloomGoValues returns row r's values in the Go form of each column's
// type, as [BloomFilter.MayContain] takes them.
func bloomGoValues(r bloomRow) map[string]any {
	var df [16]byte
	for i := range df[:10] {
		df[i] = 0xff
	}
	copy(df[10:], r.DF[:])
	return map[string]any{
		"i32": r.I32, "i64": r.I64, "i8": r.I8, "i16": r.I16, "u8": int16(r.U8), "u16": int32(r.U16), "u32": int64(r.U32), "u64": int64(r.U64),
		"date": r.Date, "tms": int64(r.TMs) * 1000, "tsms": r.TsMs * 1000, "f": r.F, "d": r.D, "s": r.S, "bin": r.Bin,
		"fx": append([]byte(nil), r.Fx[:]...), "u": r.U, "d32": decimalOf(int64(r.D32)), "d64": decimalOf(r.D64),
		"df": decimalFromBytes(r.DF[:]),
	}
}

func writeBloomFile(t *testing.T, rows []bloomRow) []byte {
	var filters []pq.BloomFilterColumn
	for _, c := range bloomColumns {
		filters = append(filters, pq.SplitBlockFilter(10, c))
	}
	return writeRows(t, rows, pq.BloomFilters(filters...))
}

// TestBloomFilterGenerated checks every stored value of each column type
// parquet-go writes a bloom filter for, values of another row group (absent
// here), and values no stored value converts to.
func TestBloomFilterGenerated(t *testing.T) {
	rows := bloomRows()
	f := openBytes(t, writeBloomFile(t, rows[:20]))
	other := openBytes(t, writeBloomFile(t, rows[20:]))
	for _, c := range bloomColumns {
		bf, err := f.BloomFilterOf(0, leafNamed(t, f, c))
		if err != nil || bf == nil {
			t.Fatalf("%s: BloomFilterOf: %v, %v", c, bf, err)
		}
		for _, r := range rows[:20] {
			if v := bloomGoValues(r)[c]; !bf.MayContain(v) {
				t.Errorf("%s: MayContain(%v) = false for a stored value", c, v)
			}
		}
		falses := 0
		for _, r := range rows[20:] {
			if !bf.MayContain(bloomGoValues(r)[c]) {
				falses++
			}
		}
		// 10 bits a value: a false positive is about 1 in 100.
		if falses < 18 {
			t.Errorf("%s: %d of 20 absent values ruled out", c, falses)
		}
		obf, err := other.BloomFilterOf(0, leafNamed(t, other, c))
		if err != nil || obf == nil {
			t.Fatalf("%s: other BloomFilterOf: %v, %v", c, obf, err)
		}
		for _, r := range rows[20:] {
			if v := bloomGoValues(r)[c]; !obf.MayContain(v) {
				t.Errorf("%s: other: MayContain(%v) = false for a stored value", c, v)
			}
		}
	}
	// Values without a single plain form: may.
	for c, v := range map[string]any{"f": float32(0), "d": float64(0), "i32": int64(5), "s": 7} {
		bf, _ := f.BloomFilterOf(0, leafNamed(t, f, c))
		if !bf.MayContain(v) {
			t.Errorf("%s: MayContain(%v) = false, want true (no plain form)", c, v)
		}
	}
	// Values no stored value converts to: absent without hashing.
	for c, v := range map[string]any{"u8": int16(300), "u8 negative": int16(-1), "u16": int32(70000), "u32": int64(-1), "u64": int64(-5),
		"tms": int64(1001), "tsms": (int64(1_700_000_000_000)+1)*1000 + 1, "fx": []byte("toolong"), "d32": schema.DecimalValue{Lo: 1 << 40}} {
		col := c
		if i := bytes.IndexByte([]byte(c), ' '); i > 0 {
			col = c[:i]
		}
		bf, _ := f.BloomFilterOf(0, leafNamed(t, f, col))
		if bf.MayContain(v) {
			t.Errorf("%s: MayContain(%v) = true, want false (out of the column's range)", c, v)
		}
	}
}

// TestBloomFilterAbsent: a column written without a filter has none.
func TestBloomFilterAbsent(t *testing.T) {
	b := writeRows(t, bloomRows()[:3])
	f := openBytes(t, b)
	bf, err := f.BloomFilterOf(0, leafNamed(t, f, "s"))
	if bf != nil || err != nil {
		t.Fatalf("BloomFilterOf = %v, %v; want nil, nil", bf, err)
	}
}

// TestCorruptBloomFilter flips the bitset size of a bloom filter header:
// the error is ErrCorrupt naming the file, never a skip.
func TestCorruptBloomFilter(t *testing.T) {
	b := writeRows(t, bloomRows()[:3], pq.BloomFilters(pq.SplitBlockFilter(10, "s")))
	f := openBytes(t, b)
	leaf := leafNamed(t, f, "s")
	f.stats.once.Do(f.buildStatsIndex)
	col := f.stats.byField[leaf]
	off := f.meta.RowGroups[0].Columns[col].MetaData.BloomFilterOffset.V
	for name, mutate := range map[string]func(c []byte){
		// field 1 (i32) num_bytes: zigzag varint 31 → not a multiple of 32
		"size": func(c []byte) { c[off+1] = 31 << 1 },
		// a field header of an unknown compact type
		"garbage": func(c []byte) { c[off] = 0x1f },
		// num_bytes far beyond the file
		"beyond": func(c []byte) { c[off+1], c[off+2], c[off+3] = 0x80, 0x80, 0x40 },
	} {
		c := append([]byte(nil), b...)
		mutate(c)
		cf, err := Open(bytes.NewReader(c), int64(len(c)), WithName("x.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		bf, err := cf.BloomFilterOf(0, leafNamed(t, cf, "s"))
		var ce *CorruptError
		if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.File != "x.parquet" || bf != nil {
			t.Errorf("%s: BloomFilterOf = %v, %v; want a CorruptError naming x.parquet", name, bf, err)
		}
	}
}
