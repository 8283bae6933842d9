package orc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestFooterRowsMismatch: Impala's ORC position delete file (3 rows in one
// stripe) with one bit flipped in the footer's stripe information reads
// its stripe as 0 rows while the footer still states 3: Open fails with
// ErrCorrupt naming the footer and both counts, instead of the file
// decoding as 0 rows.
func TestFooterRowsMismatch(t *testing.T) {
	p := filepath.Join(testutil.RealDir(t, "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes_orc/data/action=click"),
		"00000-0-delete-boroknagyz_20220830173925_010bf879-cf2f-4209-a70b-1a8309657106-job_16618645111571_0006-00002.orc")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if f.NumRows() != 3 || f.NumStripes() != 1 || f.StripeRows(0) != 3 {
		t.Fatalf("undamaged: %d rows, %d stripes, stripe 0 %d rows; want 3, 1, 3", f.NumRows(), f.NumStripes(), f.StripeRows(0))
	}
	data[1165] ^= 2
	_, err = Open(bytes.NewReader(data), int64(len(data)), WithFileName("del.orc"))
	var ce *CorruptError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.Section != "footer" || ce.File != "del.orc" {
		t.Fatalf("err = %v, want a footer *CorruptError of del.orc", err)
	}
	if want := "the footer states 3 rows, its stripes hold 0"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
}
