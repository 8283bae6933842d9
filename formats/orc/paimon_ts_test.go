package orc

import (
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/schema"
)

// TestPaimonJavaTimestampMillis reads the Paimon Java file of paimon-cpp's
// append_with_multiple_ts_precision_and_timezone table, whose writer zone is
// not UTC: the TIMESTAMP(3) values 1, 3 and 5 ms (README "Add
// Timestamp(1l,0)…") sit before the epoch in the writer's zone, so the
// writer truncated their seconds toward zero. The one-second correction
// belongs to the writer's instant, before the zone shift; applied after it,
// the values read 1.001 s, 1.003 s and 1.005 s. The file written by the C++
// library in the same folder (floor seconds) must agree.
func TestPaimonJavaTimestampMillis(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := filepath.Join(realDir(t), "paimon-cpp", "test", "test_data", "orc",
		"append_with_multiple_ts_precision_and_timezone.db", "append_with_multiple_ts_precision_and_timezone", "bucket-0")
	for _, name := range []string{"data-3f58c403-1672-49a3-93c0-d90cfff9bd8a-0.orc", "cpp_paimon_write_apache_orc_9.orc"} {
		f := openFile(t, filepath.Join(dir, name))
		proj, err := schema.Select(f.Schema(), []string{"ts_sec", "ts_milli", "ts_micro", "ts_nano"}, false)
		if err != nil {
			t.Fatal(err)
		}
		got := readColumns(t, f, proj, mem)
		want := map[string]string{
			// timestamp_ns columns: nanoseconds since the epoch.
			"ts_sec":   "[1000000000 3000000000 5000000000]",
			"ts_milli": "[1000000 3000000 5000000]",
			"ts_micro": "[1000 (null) (null)]",
			"ts_nano":  "[1 3 (null)]",
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s = %s, want %s", name, k, got[k], w)
			}
		}
	}
}
