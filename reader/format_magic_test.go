package reader_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestDamagedLeadingMagic: a file whose leading magic is damaged but whose
// tail says its format (Parquet's trailing PAR1, ORC's postscript magic),
// or whose name's extension does, is a corrupt file of that format
// (reader.ErrBadMagic, class lakecat.ErrCorrupt, and the format's
// ErrCorrupt), never of an unknown format; a file neither its tail nor its
// name places, or an encrypted Parquet file (PARE), stays unknown.
func TestDamagedLeadingMagic(t *testing.T) {
	damage := func(b []byte) []byte {
		b = bytes.Clone(b)
		b[1] ^= 0x20
		return b
	}
	pq := damage(ordersFile(t))
	orcFile, err := os.ReadFile(filepath.Join(testutil.RealDir(t, "apache-orc", "examples"), "TestOrcFile.columnProjection.orc"))
	if err != nil {
		t.Fatal(err)
	}
	avroFile, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "orders", "metadata", "orders-m0.avro"))
	if err != nil {
		t.Fatal(err)
	}
	pare := append(append([]byte("PARE"), make([]byte, 16)...), "PARE"...)
	for _, c := range []struct {
		name, file string
		data       []byte
		want       error // the format's ErrCorrupt, or reader.ErrUnknownFormat
		msg        string
	}{
		{"parquet by its tail", "f.bin", pq, parquet.ErrCorrupt,
			`f.bin: reader: damaged magic bytes: Parquet file by its trailing magic, but its leading magic is "PaR1", not "PAR1"`},
		{"parquet by its tail, no name", "", pq, parquet.ErrCorrupt,
			`<data file>: reader: damaged magic bytes: Parquet file by its trailing magic, but its leading magic is "PaR1", not "PAR1"`},
		{"orc by its postscript", "f.bin", damage(orcFile), orc.ErrCorrupt,
			`f.bin: reader: damaged magic bytes: ORC file by its postscript's magic, but its leading magic is "OrC", not "ORC"`},
		{"avro by its name", "m.AVRO", damage(avroFile), avro.ErrCorrupt,
			`m.AVRO: reader: damaged magic bytes: Avro file by its name's extension .avro, but its leading magic is "OBj\x01", not "Obj\x01"`},
		{"orc by its name", "x/y.orc", []byte("hello, world"), orc.ErrCorrupt,
			`x/y.orc: reader: damaged magic bytes: ORC file by its name's extension .orc, but its leading magic is "hel", not "ORC"`},
		{"avro without its name", "m.bin", damage(avroFile), reader.ErrUnknownFormat,
			`m.bin: reader: unknown file format: magic "OBj\x01"`},
		{"encrypted parquet", "e.bin", pare, reader.ErrUnknownFormat,
			`e.bin: reader: unknown file format: magic "PARE"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := testutil.CheckedAllocator(t)
			rr, err := reader.Open(context.Background(), bytes.NewReader(c.data), int64(len(c.data)), reader.Options{Name: c.file, Allocator: mem})
			if err == nil {
				rr.Release()
				t.Fatal("no error")
			}
			if err.Error() != c.msg {
				t.Errorf("error %q\n want %q", err, c.msg)
			}
			bad := c.want != reader.ErrUnknownFormat
			if !errors.Is(err, c.want) || errors.Is(err, reader.ErrBadMagic) != bad || errors.Is(err, reader.ErrUnknownFormat) == bad ||
				(lakecat.ClassOf(err) == lakecat.ErrCorrupt) != bad {
				t.Errorf("error %v: class %v, bad magic %v", err, lakecat.ClassOf(err), errors.Is(err, reader.ErrBadMagic))
			}
			f, derr := reader.DetectFormatNamed(bytes.NewReader(c.data), int64(len(c.data)), c.file)
			if f != reader.FormatUnknown || !errors.Is(derr, c.want) {
				t.Errorf("DetectFormatNamed: %v, %v", f, derr)
			}
		})
	}
}
