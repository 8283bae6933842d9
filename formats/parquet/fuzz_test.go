package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/internal/realdata"
)

var updateFuzzCorpus = flag.Bool("update-fuzz-corpus", false, "rewrite testdata/fuzz/FuzzOpenAndRead from the generated fixtures")

// fuzzSeeds are small generated files: flat and nested columns, dictionary
// and plain pages, INT96, decimals.
func fuzzSeeds(t testing.TB) map[string][]byte {
	seeds := map[string][]byte{"small": smallFile(t)}
	seeds["a11"] = writeSchemaRows(t, pq.Group{"tags": pq.Optional(pq.Map(pq.String(), pq.Optional(pq.List(pq.Optional(pq.String())))))}, []pq.Row{
		{lv(str("a"), 0, 2, 0), lv(str("x"), 0, 5, 1), lv(str("y"), 2, 5, 1)},
		{null(0, 1, 0), null(0, 1, 1)},
		{null(0, 0, 0), null(0, 0, 1)},
		{lv(str("b"), 0, 2, 0), null(0, 3, 1)},
	})
	var rows []pq.Row
	for i := 0; i < 30; i++ {
		if i%5 == 0 {
			rows = append(rows, pq.Row{null(0, 0, 0), null(0, 0, 1)})
			continue
		}
		rows = append(rows, pq.Row{lv(pq.FixedLenByteArrayValue([]byte{byte(i), 0, 1}), 0, 1, 0), lv(pq.Int96Value(int96Of(int64(i)*86_400_000_001)), 0, 1, 1)})
	}
	seeds["dict"] = writeSchemaRows(t, pq.Group{
		"d": pq.Optional(pq.Decimal(2, 6, pq.FixedLenByteArrayType(3))),
		"t": pq.Optional(pq.Encoded(pq.Leaf(pq.Int96Type), &pq.RLEDictionary)),
	}, rows, pq.PageBufferSize(64))
	// Dictionaries of short strings (at most 16 bytes, and 17 to 32),
	// gathered as blocks, with nulls in the flat optional column and pages
	// with and without them.
	var short []dictRow
	for i := 0; i < 40; i++ {
		w := fmt.Sprint("k", i%3)
		long := fmt.Sprintf("%-20d", i%4)
		r := dictRow{R: long, D: float64(i % 2)}
		if i >= 20 && i%3 != 0 {
			r.S = &w
		}
		short = append(short, r)
	}
	seeds["dictshort"] = writeRows(t, short, pq.PageBufferSize(64))
	return seeds
}

// FuzzOpenAndRead opens arbitrary bytes as a Parquet file and reads every
// column in small batches: no panic, no leak, only typed errors, and every
// batch valid. Seeds: the committed generated files under
// testdata/fuzz/FuzzOpenAndRead, plus, when the shared real test data is
// present, the footers of the real files (read in place, not committed).
func FuzzOpenAndRead(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
	}
	if dir := realDirIfPresent(); dir != "" {
		for _, rel := range realParquetFilesQuiet(dir) {
			b, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil || len(b) < 12 {
				continue
			}
			n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
			if n+12 > len(b) || n > 64<<10 {
				continue
			}
			// The footer alone, behind a leading magic: every chunk offset
			// then points outside or into the footer.
			seed := append([]byte("PAR1"), b[len(b)-8-n:]...)
			f.Add(seed)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		if err := fuzzRead(data, mem); err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("untyped error: %v", err)
		}
	})
}

func fuzzRead(data []byte, mem memory.Allocator) error {
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	if f.NumRows() > 2048 {
		return nil // a valid footer claiming many rows: reading would only fail slowly
	}
	br, err := f.NewBatchReader(f.Schema(), BatchOptions{BatchRows: 7, Allocator: mem})
	if err != nil {
		return err
	}
	defer br.Close()
	for {
		rec, err := br.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, c := range rec.Columns() {
			if v, ok := c.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					rec.Release()
					panic(fmt.Sprintf("invalid batch column: %v", err))
				}
			}
		}
		rec.Release()
	}
}

func realDirIfPresent() string { return realdata.Present() }

func realParquetFilesQuiet(dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && filepath.Ext(p) == ".parquet" {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// TestFuzzCorpus keeps the committed seed corpus in step with the
// generators (rewrite it with -update-fuzz-corpus) and runs every seed.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzOpenAndRead")
	for name, b := range fuzzSeeds(t) {
		path := filepath.Join(dir, "seed-"+name)
		if *updateFuzzCorpus {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			content := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("seed %s missing from the corpus (run with -update-fuzz-corpus): %v", name, err)
		}
		mem := newMem(t)
		if err := fuzzRead(b, mem); err != nil {
			t.Errorf("seed %s: %v", name, err)
		}
	}
}
