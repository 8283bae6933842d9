package orc

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/realdata"
)

// realDir returns the shared directory of real third-party files (see
// package internal/realdata), skipping the test when it is absent (failing
// when CI=true).
func realDir(t testing.TB) string {
	t.Helper()
	return realdata.Require(t)
}

func examplesDir(t testing.TB) string {
	return filepath.Join(realDir(t), "apache-orc", "examples")
}

func openFile(t testing.TB, path string) *File {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(fh, st.Size(), WithFileName(filepath.Base(path)))
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return f
}

// goldSkip lists the example files with a gold output that this decoder
// does not read, and why.
var goldSkip = map[string]string{}

// TestGoldZstd reads the ZSTD example, written with the same data as the
// LZ4 and LZO ones, against the LZ4 gold file.
func TestGoldZstd(t *testing.T) {
	dir := examplesDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	f := openFile(t, filepath.Join(dir, "TestVectorOrcFile.testZstd.0.12.orc"))
	if n := compareGold(t, f, filepath.Join(dir, "expected", "TestVectorOrcFile.testLz4.jsn.gz"), mem, 777); n != 10000 {
		t.Errorf("compared %d rows", n)
	}
}

// TestGold reads every apache/orc example file that has an expected JSON
// output and compares every row and column.
func TestGold(t *testing.T) {
	dir := examplesDir(t)
	golds, err := filepath.Glob(filepath.Join(dir, "expected", "*.jsn.gz"))
	if err != nil || len(golds) == 0 {
		t.Fatalf("no gold files: %v", err)
	}
	for _, g := range golds {
		name := strings.TrimSuffix(filepath.Base(g), ".jsn.gz") + ".orc"
		t.Run(name, func(t *testing.T) {
			if why, ok := goldSkip[name]; ok {
				t.Skip(why)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			f := openFile(t, filepath.Join(dir, name))
			truncateDecimals = -1
			if f.Version() == "0.11" && name == "orc-file-11-format.orc" {
				truncateDecimals = 6
			}
			n := compareGold(t, f, g, mem, 1000)
			if n != f.NumRows() {
				t.Errorf("compared %d rows, file has %d", n, f.NumRows())
			}
		})
	}
}

func compareGold(t *testing.T, f *File, gold string, mem memory.Allocator, batch int) int64 {
	t.Helper()
	gz, err := os.Open(gold)
	if err != nil {
		t.Fatal(err)
	}
	defer gz.Close()
	zr, err := gzip.NewReader(gz)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	br, err := f.NewBatchReader(nil, BatchOptions{BatchRows: batch, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	bareRoot := f.root.t.kind != kStruct
	var row int64
	errs := 0
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("row %d: %v", row, err)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if !sc.Scan() {
				rec.Release()
				t.Fatalf("gold has %d rows, file has more", row)
			}
			d := json.NewDecoder(strings.NewReader(sc.Text()))
			d.UseNumber()
			var want any
			if err := d.Decode(&want); err != nil {
				t.Fatal(err)
			}
			var cerr error
			if bareRoot {
				cerr = compareValue(want, rec.Column(0), i)
			} else {
				obj, _ := want.(map[string]any)
				if len(obj) != int(rec.NumCols()) {
					cerr = fmt.Errorf("gold has %d columns, batch %d", len(obj), rec.NumCols())
				}
				for c := 0; c < int(rec.NumCols()) && cerr == nil; c++ {
					fn := rec.Schema().Field(c).Name
					if e := compareValue(obj[fn], rec.Column(c), i); e != nil {
						cerr = fmt.Errorf("%s: %w", fn, e)
					}
				}
			}
			if cerr != nil {
				errs++
				if errs <= 5 {
					t.Errorf("row %d: %v", row, cerr)
				}
			}
			row++
		}
		rec.Release()
	}
	if sc.Scan() {
		t.Errorf("gold has more than %d rows", row)
	}
	if errs > 5 {
		t.Errorf("%d rows differ", errs)
	}
	return row
}

// compareValue compares element i of a with a value decoded from the gold
// JSON (numbers as json.Number).
func compareValue(want any, a arrow.Array, i int) error {
	if a.IsNull(i) {
		if want != nil {
			return fmt.Errorf("got null, want %v", want)
		}
		return nil
	}
	if want == nil {
		return fmt.Errorf("got %v, want null", a.ValueStr(i))
	}
	num := func() string { n, _ := want.(json.Number); return string(n) }
	eq := func(got string) error {
		if got != num() {
			return fmt.Errorf("got %s, want %v", got, want)
		}
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		if w, ok := want.(bool); !ok || w != a.Value(i) {
			return fmt.Errorf("got %v, want %v", a.Value(i), want)
		}
	case *array.Int8:
		return eq(strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Int16:
		return eq(strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Int32:
		return eq(strconv.FormatInt(int64(a.Value(i)), 10))
	case *array.Int64:
		return eq(strconv.FormatInt(a.Value(i), 10))
	case *array.Float32:
		if !floatMatches(float64(a.Value(i)), num(), 32) {
			return fmt.Errorf("got %v, want %v", a.Value(i), want)
		}
	case *array.Float64:
		if !floatMatches(a.Value(i), num(), 64) {
			return fmt.Errorf("got %v, want %v", a.Value(i), want)
		}
	case *array.String:
		if w, ok := want.(string); !ok || w != a.Value(i) {
			return fmt.Errorf("got %q, want %v", a.Value(i), want)
		}
	case *array.Binary:
		w, ok := want.([]any)
		v := a.Value(i)
		if !ok || len(w) != len(v) {
			return fmt.Errorf("got %v, want %v", v, want)
		}
		for j := range v {
			if w[j].(json.Number) != json.Number(strconv.Itoa(int(v[j]))) {
				return fmt.Errorf("got %v, want %v", v, want)
			}
		}
	case *array.Date32:
		got := a.Value(i).ToTime().Format("2006-01-02")
		if want != got {
			return fmt.Errorf("got %s, want %v", got, want)
		}
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		got := formatTS(a.Value(i).ToTime(unit))
		if want != got {
			return fmt.Errorf("got %s, want %v", got, want)
		}
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		got := new(big.Rat).SetFrac(a.Value(i).BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
		w, ok := new(big.Rat).SetString(num())
		if truncateDecimals >= 0 {
			// The gold tool reads Hive 0.11 decimals at a forced scale,
			// truncating the rest.
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(truncateDecimals)), nil)
			q := new(big.Int).Quo(new(big.Int).Mul(got.Num(), p), got.Denom())
			got = new(big.Rat).SetFrac(q, p)
		}
		if !ok || w.Cmp(got) != 0 {
			return fmt.Errorf("got %s, want %v", got.FloatString(int(scale)), want)
		}
	case *array.Struct:
		obj, ok := want.(map[string]any)
		st := a.DataType().(*arrow.StructType)
		if _, union := obj["value"]; ok && union && st.NumFields() > 1 && st.Field(0).Name == UnionTagName {
			// The Java tool prints a union as {"tag": k, "value": v}; it
			// is read as {tag, field0, …}: tag k, fieldk v, the others null.
			if err := compareValue(obj["tag"], a.Field(0), i); err != nil {
				return fmt.Errorf("tag: %w", err)
			}
			tag := int(a.Field(0).(*array.Int8).Value(i))
			for j := 1; j < st.NumFields(); j++ {
				var w any
				if j-1 == tag {
					w = obj["value"]
				}
				if err := compareValue(w, a.Field(j), i); err != nil {
					return fmt.Errorf("%s: %w", st.Field(j).Name, err)
				}
			}
			return nil
		}
		if !ok || len(obj) != st.NumFields() {
			return fmt.Errorf("got struct of %d fields, want %v", st.NumFields(), want)
		}
		for j := 0; j < st.NumFields(); j++ {
			if err := compareValue(obj[st.Field(j).Name], a.Field(j), i); err != nil {
				return fmt.Errorf("%s: %w", st.Field(j).Name, err)
			}
		}
	case *array.Map:
		w, ok := want.([]any)
		s, e := a.ValueOffsets(i)
		if !ok || int64(len(w)) != e-s {
			return fmt.Errorf("got map of %d entries, want %v", e-s, want)
		}
		for j := range w {
			kv := w[j].(map[string]any)
			if err := compareValue(kv["key"], a.Keys(), int(s)+j); err != nil {
				return fmt.Errorf("key %d: %w", j, err)
			}
			if err := compareValue(kv["value"], a.Items(), int(s)+j); err != nil {
				return fmt.Errorf("value %d: %w", j, err)
			}
		}
	case *array.List:
		w, ok := want.([]any)
		s, e := a.ValueOffsets(i)
		if !ok || int64(len(w)) != e-s {
			return fmt.Errorf("got list of %d, want %v", e-s, want)
		}
		for j := range w {
			if err := compareValue(w[j], a.ListValues(), int(s)+j); err != nil {
				return fmt.Errorf("[%d]: %w", j, err)
			}
		}
	default:
		return errors.New("no comparison for " + a.DataType().String())
	}
	return nil
}

// truncateDecimals, when ≥ 0, truncates decimals to that many fractional
// digits before comparing (set for Hive 0.11 files).
var truncateDecimals = -1

// floatMatches reports whether got printed with as many significant digits
// as the gold text has is the gold value: the gold tool prints doubles with
// up to 14 and floats with up to 7 significant digits.
func floatMatches(got float64, want string, bits int) bool {
	w, err := strconv.ParseFloat(want, bits)
	if err != nil {
		return false
	}
	if w == got {
		return true
	}
	digits := 0
	for _, c := range strings.TrimLeft(strings.SplitN(strings.ToLower(want), "e", 2)[0], "-0.") {
		if c >= '0' && c <= '9' {
			digits++
		}
	}
	g, err := strconv.ParseFloat(strconv.FormatFloat(got, 'g', max(digits, 1), bits), bits)
	return err == nil && g == w
}

// formatTS formats a wall-clock timestamp as the ORC Java tools do:
// "2006-01-02 15:04:05" and the fraction without trailing zeros, ".0" when
// there is none.
func formatTS(t time.Time) string {
	t = t.UTC()
	s := t.Format("2006-01-02 15:04:05")
	frac := strings.TrimRight(fmt.Sprintf("%09d", t.Nanosecond()), "0")
	if frac == "" {
		frac = "0"
	}
	return s + "." + frac
}
