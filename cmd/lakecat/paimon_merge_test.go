package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
)

// TestPaimonMergeListing: files shows each primary-key file's bucket,
// level and sorted run and whether its section merges; plan says it in
// words. In testdata/paimon_orders only buckets 3 and 4 merge (the update
// of order 3 and the delete of order 4 overlap the files that hold them).
func TestPaimonMergeListing(t *testing.T) {
	orders := filepath.Join(testutil.RepoRoot(t), "testdata", "paimon_orders")
	out, errOut, code := runCLI(t, "files", orders)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || errOut != "" || len(lines) != 15 || !strings.HasSuffix(strings.Join(strings.Fields(lines[0]), " "), "DELETED BUCKET LEVEL RUN MERGE") {
		t.Fatalf("files: exit %d (%q):\n%s", code, errOut, out)
	}
	var merged []string
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if f[len(f)-1] == "merge" {
			merged = append(merged, filepath.Base(f[0])+" "+strings.Join(f[len(f)-7:], " "))
		}
	}
	want := "data-00000000-0000-0000-0000-000000000013-0.parquet 3 0 1/2 of section 0 merge|" +
		"data-00000000-0000-0000-0000-000000000004-0.parquet 3 0 2/2 of section 0 merge|" +
		"data-00000000-0000-0000-0000-000000000014-0.parquet 4 0 1/2 of section 0 merge|" +
		"data-00000000-0000-0000-0000-000000000005-0.parquet 4 0 2/2 of section 0 merge"
	if got := strings.Join(merged, "|"); got != want {
		t.Errorf("merged files:\n%s\nwant\n%s", got, want)
	}
	out, errOut, code = runCLI(t, "plan", orders)
	if code != exitOK || errOut != "" ||
		strings.Count(out, "lsm: bucket 3, level 0, sorted run 1 of 2 in section 0: merged with the section's other 1 sorted runs\n") != 1 ||
		strings.Count(out, ": read as stored (its key range overlaps no other file and it holds no retracts)\n") != 10 {
		t.Errorf("plan: exit %d (%q):\n%s", code, errOut, out)
	}
}
