package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	tableopen "github.com/lakecat/lakecat/table/open"
)

// TestUnitRoundTrip makes the planning units of every table lakecat reads
// (the real tables of the shared test data and the bundled ones), one per
// Iceberg data manifest, with every multi-row-group Parquet file and
// multi-stripe ORC file split, encodes them as JSON, plans and reads them
// in a fresh process (internal/taskread -units, built here), and checks
// that the rows are exactly those `lakecat cat --format jsonl` prints.
func TestUnitRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a helper binary")
	}
	bin := filepath.Join(t.TempDir(), "taskread")
	build := exec.Command("go", "build", "-o", bin, "github.com/lakecat/lakecat/internal/taskread")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build taskread: %v\n%s", err, out)
	}
	repo := testutil.RepoRoot(t)
	dirs := append(tableFolders(t, testutil.RealDir(t)), filepath.Join(repo, "testdata", "orders"), filepath.Join(repo, "testdata", "paimon_orders"),
		multiRowGroupOrders(t))
	ctx := context.Background()
	var read, refused, units, multi, rows int
	for _, dir := range dirs {
		want, _, code := runCLI(t, "cat", dir, "--format", "jsonl")
		if code != exitOK {
			refused++
			continue
		}
		tbl, err := tableopen.Open(ctx, storage.OSFS{}, dir)
		if err != nil {
			t.Errorf("%s: cat reads it, Open: %v", dir, err)
			continue
		}
		us, err := tbl.NewScan(table.ScanOptions{SplitBytes: 1, UnitBytes: -1}).Units(ctx)
		if err != nil {
			t.Errorf("%s: Units: %v", dir, err)
			continue
		}
		b, err := json.Marshal(us)
		if err != nil {
			t.Errorf("%s: encode units: %v", dir, err)
			continue
		}
		cmd := exec.Command(bin, "-units")
		cmd.Stdin = bytes.NewReader(b)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		got, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: taskread -units: %v: %s", dir, err, stderr.String())
			continue
		}
		if string(got) != want {
			t.Errorf("%s: rows read from %d decoded units differ from lakecat cat:\n got %s\nwant %s", dir, len(us), got, want)
			continue
		}
		read++
		units += len(us)
		if len(us) > 1 {
			multi++
		}
		rows += strings.Count(want, "\n")
	}
	t.Logf("%d tables read through JSON planning units in a fresh process (%d units; %d tables of several; %d rows); %d refused by cat as well", read, units, multi, rows, refused)
	if read < 20 || multi == 0 {
		t.Errorf("too little covered: %d tables, %d of several units", read, multi)
	}
}
