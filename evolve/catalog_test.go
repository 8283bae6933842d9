package evolve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lakecat/lakecat/internal/restcatalog"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
	"github.com/lakecat/lakecat/table/iceberg/rest"
)

var catalogOrders = rest.Identifier{Namespace: []string{"db"}, Name: "orders"}

func catalogClient(t *testing.T, srv *restcatalog.Server) *rest.Client {
	t.Helper()
	c, err := rest.New(context.Background(), rest.Options{URI: srv.URL, Token: "t0ken", RetryDelay: time.Millisecond, MaxCommitAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fieldList renders a schema as "name#id" in order.
func fieldList(s *schema.Schema) string {
	var parts []string
	for _, f := range s.Fields {
		parts = append(parts, fmt.Sprintf("%s#%d", f.Name, f.ID))
	}
	return strings.Join(parts, " ")
}

// TestCommitCatalogConflict: another writer adds a column between this
// commit's load and its commit; the catalog answers 409, and the same
// update is applied again to the winner's metadata, so both columns end up
// in the table with distinct ids.
func TestCommitCatalogConflict(t *testing.T) {
	srv, dir := restcatalog.WithOrders(t, restcatalog.Options{Token: "t0ken"})
	c, other := catalogClient(t, srv), catalogClient(t, srv)
	ctx := context.Background()
	var injected atomic.Bool
	srv.BeforeCommit = func([]string, string) {
		if injected.Swap(true) {
			return
		}
		if _, err := CommitCatalog(ctx, other, catalogOrders, NewUpdate().AddColumn("region", schema.String, "")); err != nil {
			t.Error(err)
		}
	}
	res, err := CommitCatalog(ctx, c, catalogOrders, NewUpdate().AddColumn("coupon", schema.String, "discount code"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || !res.Changed || res.LastColumnID != 10 {
		t.Fatalf("attempts %d, changed %v, last-column-id %d; want 2, true, 10", res.Attempts, res.Changed, res.LastColumnID)
	}
	if got, want := fieldList(res.New), "order_shop_id#4 order_id#1 customer#2 price#5 amount#6 note#7 channel#8 region#9 coupon#10"; got != want {
		t.Fatalf("new schema %s\nwant       %s", got, want)
	}
	wantFile := filepath.Join(dir, "metadata", "v3.metadata.json")
	if res.File != "file://"+wantFile || srv.MetadataFile(catalogOrders.Namespace, catalogOrders.Name) != wantFile {
		t.Fatalf("file %s", res.File)
	}
	data, err := os.ReadFile(wantFile)
	if err != nil {
		t.Fatal(err)
	}
	m, err := iceberg.ParseMetadata(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.CurrentSchemaID != 4 || m.LastColumnID != 10 || len(m.Schemas) != 5 || len(m.MetadataLog) != 2 {
		t.Fatalf("v3: current schema %d, last-column-id %d, %d schemas, %d metadata-log entries", m.CurrentSchemaID, m.LastColumnID, len(m.Schemas), len(m.MetadataLog))
	}
	if got := fieldList(m.SchemaByID(3)); got != "order_shop_id#4 order_id#1 customer#2 price#5 amount#6 note#7 channel#8 region#9" {
		t.Fatalf("schema 3: %s", got)
	}
	for _, s := range m.Schemas {
		seen := map[int]bool{}
		for _, f := range s.Fields {
			if seen[f.ID] {
				t.Fatalf("schema %d: field id %d twice", s.ID, f.ID)
			}
			seen[f.ID] = true
		}
	}
	if f := m.CurrentSchema().FindByName("coupon", false); f == nil || f.Doc != "discount code" {
		t.Fatalf("coupon: %+v", f)
	}
	var posts []string
	for _, r := range srv.Requests() {
		if r.Method == "POST" {
			posts = append(posts, r.Path)
		}
	}
	if len(posts) != 3 {
		t.Fatalf("commit requests %v, want 3 (first 409, the winner's, the re-applied one)", posts)
	}
}

// TestCommitCatalogBounded: a commit that keeps losing stops after
// MaxCommitAttempts with ErrCommitFailed.
func TestCommitCatalogBounded(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Token: "t0ken"})
	c, other := catalogClient(t, srv), catalogClient(t, srv)
	ctx := context.Background()
	var inHook atomic.Bool
	var n atomic.Int32
	srv.BeforeCommit = func([]string, string) {
		if inHook.Swap(true) {
			return
		}
		defer inHook.Store(false)
		name := fmt.Sprintf("winner%d", n.Add(1))
		if _, err := CommitCatalog(ctx, other, catalogOrders, NewUpdate().AddColumn(name, schema.Int, "")); err != nil {
			t.Error(err)
		}
	}
	_, err := CommitCatalog(ctx, c, catalogOrders, NewUpdate().AddColumn("loser", schema.String, ""))
	if !errors.Is(err, rest.ErrCommitFailed) {
		t.Fatalf("err = %v, want ErrCommitFailed", err)
	}
	if n.Load() != 3 {
		t.Fatalf("%d attempts, want 3", n.Load())
	}
	if !strings.Contains(err.Error(), "409 Conflict): CommitFailedException: Requirement failed: current schema changed: expected id 4 != 5") {
		t.Fatalf("err = %v", err)
	}
}

// TestCommitCatalogNoChange sends nothing for an update that changes
// nothing.
func TestCommitCatalogNoChange(t *testing.T) {
	srv, _ := restcatalog.WithOrders(t, restcatalog.Options{Token: "t0ken"})
	res, err := CommitCatalog(context.Background(), catalogClient(t, srv), catalogOrders, NewUpdate().RenameColumn("customer", "customer"))
	if err != nil || res.Changed || res.File != "" {
		t.Fatalf("res %+v, err %v", res, err)
	}
	for _, r := range srv.Requests() {
		if r.Method == "POST" {
			t.Fatalf("sent %s %s", r.Method, r.Path)
		}
	}
}
