package iceberg_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

// writeMetadata writes a format v2 metadata document of at least size bytes
// to a file in t's temporary folder: the head of a table with one schema,
// then entries of body's array key made by entry(i) for i = 1, 2, … until
// the size is reached, and the tail. It returns the path, the size and the
// number of entries.
func writeMetadata(t *testing.T, size int64, body string, entry func(w io.Writer, i int) (int, error), tail string) (string, int64, int) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "v1.metadata.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n, _ := fmt.Fprintf(w, `{"format-version":2,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1","location":"s3://bucket/warehouse/db/t",`+
		`"last-sequence-number":1,"last-updated-ms":1700000000000,"last-column-id":1,"current-schema-id":0,`+
		`"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[]}],"last-partition-id":999,"current-snapshot-id":1,%q:[`, body)
	total, count := int64(n), 0
	for total < size {
		if count > 0 {
			w.WriteByte(',')
			total++
		}
		count++
		k, err := entry(w, count)
		if err != nil {
			t.Fatal(err)
		}
		total += int64(k)
	}
	k, _ := w.WriteString("]" + tail + "}")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p, total + int64(k), count
}

const oneSchema = `,"schemas":[{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"a","required":false,"type":"long"}]}]`

// sparkSnapshot writes snapshot i as Spark writes one (a summary of twelve
// entries, a manifest list), with its parent i-1.
func sparkSnapshot(w io.Writer, i int) (int, error) {
	return fmt.Fprintf(w, `{"sequence-number":%d,"snapshot-id":%d,"parent-snapshot-id":%d,"timestamp-ms":%d,`+
		`"summary":{"operation":"append","spark.app.id":"local-1700000000000","added-data-files":"1","added-records":"100",`+
		`"added-files-size":"1234","changed-partition-count":"1","total-records":"%d","total-files-size":"%d","total-data-files":"%d",`+
		`"total-delete-files":"0","total-position-deletes":"0","total-equality-deletes":"0"},`+
		`"manifest-list":"s3://bucket/warehouse/db/t/metadata/snap-%d-1-9c12d441-03fe-4693-9a96-a0705ddf69c1.avro","schema-id":0}`,
		i, i, i-1, 1700000000000+i, i*100, i*1234, i, i)
}

// decodeFile decodes the document at path through DecodeMetadata with
// the given cap and returns the result and the peak heap.
func decodeFile(t *testing.T, path string, limit int64) (*iceberg.Metadata, error, uint64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var m *iceberg.Metadata
	peak := testutil.PeakHeap(func() { m, err = iceberg.DecodeMetadataLimit(f, limit) })
	return m, err, peak
}

// TestDecodeTableMetadataHeap decodes a generated 110 MiB metadata file of
// 200,000 Spark-written snapshots (and as many snapshot-log entries) streamed
// from the file, with the cap raised past it: every snapshot is kept, and
// the peak Go heap stays under 4 times the file's size (measured: 2.5 to 3.1 on a loaded 2-core machine).
func TestDecodeTableMetadataHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and decodes a 110 MiB file")
	}
	p, size, n := writeMetadata(t, 100<<20, "snapshots", sparkSnapshot, oneSchema+`,"snapshot-log":[`+strings.Repeat(`{"timestamp-ms":1,"snapshot-id":1},`, 200000)+`{"timestamp-ms":1,"snapshot-id":1}]`)
	m, err, peak := decodeFile(t, p, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes, %d snapshots: peak heap %d MiB (%.2f times the file)", size, n, peak>>20, float64(peak)/float64(size))
	if len(m.Snapshots) != n || len(m.SnapshotLog) != 200001 {
		t.Fatalf("%d snapshots, %d snapshot-log entries; want %d and 200001", len(m.Snapshots), len(m.SnapshotLog), n)
	}
	last := m.Snapshots[n-1]
	if last.SnapshotID != int64(n) || *last.ParentSnapshotID != int64(n-1) || last.Summary["total-records"] != fmt.Sprint(n*100) ||
		last.ManifestList != fmt.Sprintf("s3://bucket/warehouse/db/t/metadata/snap-%d-1-9c12d441-03fe-4693-9a96-a0705ddf69c1.avro", n) {
		t.Fatalf("last snapshot %+v", last)
	}
	if peak > 4*uint64(size) {
		t.Errorf("peak heap %d bytes, over 4 times the file's %d", peak, size)
	}
}

// TestDecodeTableMetadataHostile decodes documents under
// MaxMetadataBytes made of the smallest entries, each within
// testutil.HeapBound: snapshots of two keys (refused past 2^19 snapshots),
// a summary of 2^16+1 entries (refused), and a file over the cap (refused
// after reading the cap).
func TestDecodeTableMetadataHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and decodes files of 64 MiB")
	}
	tiny := func(w io.Writer, i int) (int, error) { return fmt.Fprintf(w, `{"snapshot-id":%d,"timestamp-ms":1}`, i) }
	for _, c := range []struct {
		name string
		size int64
		body string
		f    func(w io.Writer, i int) (int, error)
		tail string
		want string
	}{
		{"tiny snapshots", 63 << 20, "snapshots", tiny, oneSchema, `more than 524288 "snapshots"`},
		{"summary", 2 << 20, "snapshots", func(w io.Writer, i int) (int, error) {
			var b strings.Builder
			b.WriteString(`{"snapshot-id":1,"timestamp-ms":1,"summary":{`)
			for k := range 1<<16 + 1 {
				fmt.Fprintf(&b, `"%d":"",`, k)
			}
			b.WriteString(`"operation":"append"}}`)
			return io.WriteString(w, b.String())
		}, oneSchema, `bad snapshot "summary": more than 65536 entries`},
		{"over the cap", 65 << 20, "snapshots", sparkSnapshot, oneSchema, "over the 67108864-byte cap for table metadata"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, size, _ := writeMetadata(t, c.size, c.body, c.f, c.tail)
			_, err, peak := decodeFile(t, p, iceberg.MaxMetadataBytes)
			t.Logf("%d bytes: peak heap %d MiB, %v", size, peak>>20, err)
			if !errors.Is(err, schema.ErrInvalidSchema) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrInvalidSchema saying %q", err, c.want)
			}
			if peak > testutil.HeapBound {
				t.Errorf("peak heap %d bytes, above %d", peak, testutil.HeapBound)
			}
		})
	}
}
