package evolve

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
)

// copyDir copies the tree at src into a new temporary directory.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	return testutil.CopyTree(t, src, t.TempDir(), nil)
}

func listDir(t testing.TB, dir string) []string {
	t.Helper()
	names, err := storage.OSFS{}.List(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	return names
}

var fixedNow = func() time.Time { return time.UnixMilli(1767312000000) }

func TestCommitIceberg(t *testing.T) {
	dir := copyDir(t, "testdata/iceberg-v2")
	c := Committer{Now: fixedNow}
	res, err := c.CommitIceberg(context.Background(), dir,
		NewUpdate().AddColumn("note", schema.String, "").UpdateColumnType("qty", schema.Long).MoveAfter("note", "id"))
	if err != nil {
		t.Fatal(err)
	}
	want := schema.New(2,
		req(1, "id", schema.Long),
		opt(6, "note", schema.String),
		opt(2, "payload", schema.String),
		opt(3, "ts", schema.TimestampTz),
		opt(4, "qty", schema.Long),
		opt(5, "amount", schema.Decimal(10, 2)))
	want.IdentifierFieldIDs = []int{1}
	if !res.Changed || res.Attempts != 1 || res.LastColumnID != 6 || res.New.ID != 2 || !res.New.Equal(want) ||
		res.Old.ID != 1 || res.File != filepath.Join(dir, "metadata", "v2.metadata.json") {
		t.Fatalf("result %+v", res)
	}
	if got := listDir(t, filepath.Join(dir, "metadata")); !slices.Equal(got, []string{"v1.metadata.json", "v2.metadata.json", "version-hint.text"}) {
		t.Fatalf("metadata dir: %q", got)
	}
	hint, _ := os.ReadFile(filepath.Join(dir, "metadata", "version-hint.text"))
	if string(hint) != "2" {
		t.Fatalf("version-hint.text = %q", hint)
	}
	tbl, err := iceberg.Open(context.Background(), storage.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	m := tbl.Metadata
	if tbl.Version != 2 || m.CurrentSchemaID != 2 || m.LastColumnID != 6 || len(m.Schemas) != 3 ||
		!m.CurrentSchema().Equal(want) || m.LastUpdatedMs != 1767312000000 || m.Properties["owner"] != "lakecat" ||
		len(m.PartitionSpecs) != 1 || m.PartitionSpecs[0].Fields[0].SourceID != 3 {
		t.Fatalf("committed metadata: %+v", m)
	}
	if len(m.MetadataLog) != 1 || m.MetadataLog[0] != (iceberg.MetadataLogEntry{TimestampMs: 1767225600000,
		MetadataFile: "file:///warehouse/db/events/metadata/v1.metadata.json"}) {
		t.Fatalf("metadata-log: %+v", m.MetadataLog)
	}
	// Nothing to do: nothing written.
	res, err = c.CommitIceberg(context.Background(), dir, NewUpdate().UpdateColumnDoc("id", ""))
	if err != nil || res.Changed || res.File != "" || len(listDir(t, filepath.Join(dir, "metadata"))) != 3 {
		t.Fatalf("no-op commit: %+v %v", res, err)
	}
	// A refused change writes nothing either.
	_, err = c.CommitIceberg(context.Background(), dir, NewUpdate().DeleteColumn("ts"))
	if !errors.Is(err, ErrPartitionSource) || len(listDir(t, filepath.Join(dir, "metadata"))) != 3 {
		t.Fatalf("refused commit: %v", err)
	}
}

// TestCommitBundledOrders evolves the bundled orders table (format v3).
func TestCommitBundledOrders(t *testing.T) {
	src := filepath.Join("..", "testdata", "orders")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("bundled orders table absent: %v", err)
	}
	dir := copyDir(t, src)
	res, err := Commit(context.Background(), dir, NewUpdate().
		AddColumn("region", schema.String, "", Required(), WithInitialDefault("eu")).
		RenameColumn("customer", "buyer"))
	if err != nil {
		t.Fatal(err)
	}
	if res.New.ID != 3 || res.LastColumnID != 9 || res.File != filepath.Join(dir, "metadata", "v2.metadata.json") {
		t.Fatalf("result %+v", res)
	}
	f := res.New.FindByID(9)
	if f == nil || f.Name != "region" || !f.Required || f.InitialDefault != "eu" || res.New.FindByID(2).Name != "buyer" {
		t.Fatalf("new schema %v", res.New)
	}
	tbl, err := iceberg.Open(context.Background(), storage.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Metadata.CurrentSchema().FindByID(9); got == nil || got.InitialDefault != "eu" {
		t.Fatalf("region after reload: %v", got)
	}
}

// hookFS runs before on the first CreateNoReplace, to let another writer
// win.
type hookFS struct {
	storage.WriteFS
	once   sync.Once
	before func()
}

func (h *hookFS) CreateNoReplace(ctx context.Context, name string, data []byte) error {
	h.once.Do(h.before)
	return h.WriteFS.CreateNoReplace(ctx, name, data)
}

func TestCommitIcebergLostRace(t *testing.T) {
	dir := copyDir(t, "testdata/iceberg-v2")
	h := &hookFS{WriteFS: storage.OSFS{}}
	h.before = func() {
		if _, err := (&Committer{}).CommitIceberg(context.Background(), dir, NewUpdate().AddColumn("b", schema.Int, "")); err != nil {
			t.Errorf("winner: %v", err)
		}
	}
	res, err := (&Committer{FS: h}).CommitIceberg(context.Background(), dir, NewUpdate().AddColumn("a", schema.Int, ""))
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || res.New.ID != 3 || res.LastColumnID != 7 || res.File != filepath.Join(dir, "metadata", "v3.metadata.json") {
		t.Fatalf("result %+v", res)
	}
	tbl, _ := iceberg.Open(context.Background(), storage.OSFS{}, dir)
	cur := tbl.Metadata.CurrentSchema()
	if cur.FindByName("b", false).ID != 6 || cur.FindByName("a", false).ID != 7 || len(tbl.Metadata.Schemas) != 4 {
		t.Fatalf("final schema %v", cur)
	}
	// No temporary file is left behind.
	for _, n := range listDir(t, filepath.Join(dir, "metadata")) {
		if strings.HasSuffix(n, ".tmp") {
			t.Fatalf("left %s", n)
		}
	}
	// With one attempt only, the lost race is the error.
	h = &hookFS{WriteFS: storage.OSFS{}}
	h.before = func() {
		(&Committer{}).CommitIceberg(context.Background(), dir, NewUpdate().AddColumn("c", schema.Int, ""))
	}
	_, err = (&Committer{FS: h, MaxAttempts: 1}).CommitIceberg(context.Background(), dir, NewUpdate().AddColumn("d", schema.Int, ""))
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, ErrCommitConflict) || ce.File != filepath.Join(dir, "metadata", "v4.metadata.json") {
		t.Fatalf("err = %v", err)
	}
}

// TestConcurrentCommits has two goroutines commit different changes to one
// table at once, many times over: every change lands, ids stay unique.
func TestConcurrentCommits(t *testing.T) {
	for _, form := range []string{"iceberg-v2", "paimon"} {
		t.Run(form, func(t *testing.T) {
			dir := copyDir(t, "testdata/"+form)
			const rounds = 8
			var wg sync.WaitGroup
			errs := make(chan error, 2*rounds)
			attempts := make(chan int, 2*rounds)
			for g := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for r := range rounds {
						res, err := Commit(context.Background(), dir, NewUpdate().AddColumn(fmt.Sprintf("g%d_r%d", g, r), schema.Long, ""))
						errs <- err
						attempts <- res.Attempts
					}
				}()
			}
			wg.Wait()
			close(errs)
			close(attempts)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			retried := 0
			for a := range attempts {
				retried += a - 1
			}
			var cur *schema.Schema
			var last, schemas int
			if form == "paimon" {
				tbl, err := loadPaimon(dir)
				if err != nil {
					t.Fatal(err)
				}
				cur, last, schemas = tbl.Schema.Schema(), tbl.Schema.HighestFieldID, tbl.Schema.ID+1
			} else {
				tbl, err := iceberg.Open(context.Background(), storage.OSFS{}, dir)
				if err != nil {
					t.Fatal(err)
				}
				cur, last, schemas = tbl.Metadata.CurrentSchema(), tbl.Metadata.LastColumnID, len(tbl.Metadata.Schemas)
			}
			base := 5
			if form == "paimon" {
				base = 3
			}
			ids := map[int]bool{}
			for g := range 2 {
				for r := range rounds {
					f := cur.FindByName(fmt.Sprintf("g%d_r%d", g, r), false)
					if f == nil {
						t.Fatalf("g%d_r%d lost: %v", g, r, cur)
					}
					if f.ID <= base || f.ID > base+2*rounds || ids[f.ID] {
						t.Fatalf("g%d_r%d has id %d (duplicate or out of range)", g, r, f.ID)
					}
					ids[f.ID] = true
				}
			}
			if last != base+2*rounds || len(cur.Fields) != map[string]int{"paimon": 4, "iceberg-v2": 5}[form]+2*rounds {
				t.Fatalf("last %d, %d fields", last, len(cur.Fields))
			}
			t.Logf("%s: %d commits, %d retried attempts, %d schemas", form, 2*rounds, retried, schemas)
		})
	}
}

// faultFS fails its nth operation (counting from 1).
type faultFS struct {
	storage.WriteFS
	n, calls int
}

var errInjected = errors.New("injected fault")

func (f *faultFS) hit() error {
	f.calls++
	if f.calls == f.n {
		return errInjected
	}
	return nil
}

func (f *faultFS) Open(ctx context.Context, n string) (storage.File, error) {
	if err := f.hit(); err != nil {
		return nil, err
	}
	return f.WriteFS.Open(ctx, n)
}

func (f *faultFS) List(ctx context.Context, n string) ([]string, error) {
	if err := f.hit(); err != nil {
		return nil, err
	}
	return f.WriteFS.List(ctx, n)
}

func (f *faultFS) CreateNoReplace(ctx context.Context, n string, b []byte) error {
	if err := f.hit(); err != nil {
		return err
	}
	return f.WriteFS.CreateNoReplace(ctx, n, b)
}

func (f *faultFS) Replace(ctx context.Context, n string, b []byte) error {
	if err := f.hit(); err != nil {
		return err
	}
	return f.WriteFS.Replace(ctx, n, b)
}

func (f *faultFS) Remove(ctx context.Context, n string) error {
	if err := f.hit(); err != nil {
		return err
	}
	return f.WriteFS.Remove(ctx, n)
}

// TestCommitFaults fails each file system operation of a commit in turn:
// the table is then at the old or the new version, never in between, and
// the error is the injected one unless the failing step was after the new
// file was in place.
func TestCommitFaults(t *testing.T) {
	for _, form := range []string{"iceberg-v2", "paimon"} {
		for n := 1; ; n++ {
			dir := copyDir(t, "testdata/"+form)
			f := &faultFS{WriteFS: storage.OSFS{}, n: n}
			c := Committer{FS: f, MaxAttempts: 1}
			u := NewUpdate().AddColumn("x", schema.Int, "")
			var err error
			if form == "paimon" {
				_, err = c.CommitPaimon(context.Background(), dir, u)
			} else {
				_, err = c.CommitIceberg(context.Background(), dir, u)
			}
			if f.calls < n {
				if n < 4 {
					t.Fatalf("%s: only %d operations", form, f.calls)
				}
				break // every operation has had its turn
			}
			var cur *schema.Schema
			if form == "paimon" {
				tbl, lerr := loadPaimon(dir)
				if lerr != nil {
					t.Fatal(lerr)
				}
				cur = tbl.Schema.Schema()
			} else {
				tbl, lerr := iceberg.Open(context.Background(), storage.OSFS{}, dir)
				if lerr != nil {
					t.Fatal(lerr)
				}
				cur = tbl.Metadata.CurrentSchema()
			}
			added := cur.FindByName("x", false) != nil
			if err != nil && !errors.Is(err, errInjected) {
				t.Fatalf("%s op %d: err = %v", form, n, err)
			}
			if err != nil && added {
				t.Fatalf("%s op %d: failed commit %v is visible", form, n, err)
			}
			if err == nil && !added {
				t.Fatalf("%s op %d: successful commit not visible", form, n)
			}
		}
	}
}

// TestCommitIcebergUUIDNames commits to a table whose metadata files are
// named NNNNN-uuid.metadata.json: the next name is derived from the table
// uuid and the version, so two writers of one version collide.
func TestCommitIcebergUUIDNames(t *testing.T) {
	dir := t.TempDir()
	mdir := filepath.Join(dir, "metadata")
	os.MkdirAll(mdir, 0o755)
	data, err := os.ReadFile(v2Metadata)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(mdir, "00000-0d4cf1c2-0a43-4a39-8d7c-2a0f7f3f0b1e.metadata.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(mdir, "00001-5e1d3b7e-a3f4-4c6a-9d2b-7f3c1e2d4a5b.metadata.json"), data, 0o644)
	const next = "00002-8b5c8582-95b2-52a3-ad8e-5c058262e07e.metadata.json"
	tbl, err := iceberg.Open(context.Background(), storage.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Version != 1 || filepath.Base(tbl.MetadataPath) != "00001-5e1d3b7e-a3f4-4c6a-9d2b-7f3c1e2d4a5b.metadata.json" {
		t.Fatalf("loaded %s version %d", tbl.MetadataPath, tbl.Version)
	}
	got, err := tbl.NextMetadataPath()
	if err != nil || filepath.Base(got) != next {
		t.Fatalf("next name %s, %v", got, err)
	}
	res, err := (&Committer{}).CommitIceberg(context.Background(), dir, NewUpdate().AddColumn("n", schema.Int, ""))
	if err != nil || res.File != got {
		t.Fatalf("commit: %+v %v", res, err)
	}
	// No version-hint.text for catalog-style names.
	if _, err := os.Stat(filepath.Join(mdir, "version-hint.text")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("version-hint.text: %v", err)
	}
	if names := listDir(t, mdir); len(names) != 3 {
		t.Fatalf("metadata dir %q", names)
	}
}

// TestCommitIcebergGzip commits on top of a gzip-compressed v1.gz.metadata.json.
func TestCommitIcebergGzip(t *testing.T) {
	dir := t.TempDir()
	mdir := filepath.Join(dir, "metadata")
	os.MkdirAll(mdir, 0o755)
	data, err := os.ReadFile(v2Metadata)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	os.WriteFile(filepath.Join(mdir, "v1.gz.metadata.json"), b.Bytes(), 0o644)
	res, err := (&Committer{}).CommitIceberg(context.Background(), dir, NewUpdate().AddColumn("n", schema.Int, ""))
	if err != nil || res.File != filepath.Join(mdir, "v2.metadata.json") || res.New.ID != 2 || res.LastColumnID != 6 {
		t.Fatalf("commit: %+v %v", res, err)
	}
}

func TestCommitCanceled(t *testing.T) {
	dir := copyDir(t, "testdata/iceberg-v2")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Commit(ctx, dir, NewUpdate().AddColumn("n", schema.Int, ""))
	if !errors.Is(err, context.Canceled) || res.Attempts != 0 || len(listDir(t, filepath.Join(dir, "metadata"))) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := Commit(context.Background(), t.TempDir(), NewUpdate()); !errors.Is(err, table.ErrNotATable) {
		t.Fatalf("empty dir: %v", err)
	}
}

// TestEvolveBundledOrdersFiveChanges evolves the bundled orders table
// through the five kinds of change the command line offers, then checks
// that every older schema's data files read under the new schema (the
// reader's side of the round trip).
func TestEvolveBundledOrdersFiveChanges(t *testing.T) {
	src := filepath.Join("..", "testdata", "orders")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("bundled orders table absent: %v", err)
	}
	dir := copyDir(t, src)
	u := NewUpdate()
	for _, f := range [][2]string{
		{"add", "discount double"},
		{"rename", "customer=buyer"},
		{"optional", "order_id"},
		{"type", "amount=decimal(20, 2)"},
		{"delete", "note"},
		{"move", "buyer after order_id"},
	} {
		if err := u.AddFlag(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Commit(context.Background(), dir, u)
	if err != nil {
		t.Fatal(err)
	}
	want := schema.New(3,
		opt(4, "order_shop_id", schema.Long),
		opt(1, "order_id", schema.Long),
		opt(2, "buyer", schema.String),
		opt(5, "price", schema.Double),
		opt(6, "amount", schema.Decimal(20, 2)),
		&schema.Field{ID: 8, Name: "channel", Type: schema.String, InitialDefault: "web", WriteDefault: "web"},
		opt(9, "discount", schema.Double))
	if !res.New.Equal(want) || res.New.ID != 3 || res.LastColumnID != 9 || res.Old.ID != 2 {
		t.Fatalf("result %+v\n%v", res, res.New)
	}
	var diff bytes.Buffer
	WriteDiff(&diff, res.Old, res.New, 8, res.LastColumnID)
	checkGolden(t, "testdata/orders-diff.golden", diff.Bytes())
	tbl, err := iceberg.Open(context.Background(), storage.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range tbl.Metadata.Schemas[:3] {
		if err := CheckRead(res.New, old, IcebergV3.Rules()); err != nil {
			t.Errorf("schema %d under the new schema: %v", old.ID, err)
		}
	}
}
