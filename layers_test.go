package lakecat_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayers pins the package layering of the table redesign: every table
// format rule lives in table/...; the reader and evolve use those packages
// and never each other, nor anything internal to the table layer; the
// table layer never reads data pages through the reader; storage knows no
// formats.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports ","}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/lakecat/lakecat"
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ":")
		imports[pkg] = imports[pkg][:0:0]
		for _, d := range strings.Split(deps, ",") {
			if strings.HasPrefix(d, mod) {
				imports[pkg] = append(imports[pkg], d)
			}
		}
	}
	forbid := func(pkg string, bad func(dep string) bool, why string) {
		t.Helper()
		if _, ok := imports[mod+pkg]; !ok && pkg != "" {
			t.Fatalf("no package %s", pkg)
		}
		for _, d := range imports[mod+pkg] {
			if bad(d) {
				t.Errorf("%s imports %s: %s", pkg, d, why)
			}
		}
	}
	under := func(p string) func(string) bool {
		return func(d string) bool { return d == mod+p || strings.HasPrefix(d, mod+p+"/") }
	}
	forbid("/reader", under("/evolve"), "the reader does not know schema commits")
	forbid("/evolve", under("/reader"), "evolve reads no data files")
	forbid("/reader", under("/table/internal"), "table-layer internals stay in the table layer")
	forbid("/evolve", under("/table/internal"), "table-layer internals stay in the table layer")
	for _, p := range []string{"/table", "/table/iceberg", "/table/paimon", "/table/hudi"} {
		forbid(p, under("/reader"), "the table layer plans; it does not read data files")
		forbid(p, under("/evolve"), "the table layer does not know schema updates")
	}
	for _, p := range []string{"/storage", "/storage/blob"} {
		forbid(p, func(d string) bool { return d != mod && !under("/storage")(d) && !under("/internal/osfile")(d) }, "storage knows no file or table formats")
	}
	for pkg, deps := range imports {
		for _, d := range deps {
			if strings.Contains(d, "/reader/internal/") && !strings.HasPrefix(pkg, mod+"/reader") {
				t.Errorf("%s imports %s", pkg, d)
			}
		}
	}
}

// TestNoFormatPlanningOutsideTable pins the other half of the layering:
// planning a table read (which snapshot, which files, which deletes, merge
// sections, file slices) happens only in table/...; reader and evolve use
// the format packages for what reads a task or commits a schema, nothing
// more. Every identifier the non-test files of reader and evolve take from
// table/iceberg, table/paimon and table/hudi must be in the lists below,
// and neither package calls a scan's planning methods on a format's table.
func TestNoFormatPlanningOutsideTable(t *testing.T) {
	const mod = "github.com/lakecat/lakecat/table/"
	allowed := map[string]map[string]bool{
		// Reading a task: position deletes' stored paths, Paimon deletion
		// vectors, a Hudi log block's writer schema; and a schema document
		// that is an Iceberg table metadata file (its schemas only).
		"reader": {"iceberg.Resolver": true, "iceberg.NewResolver": true, "paimon.ReadDeletionVector": true, "hudi.AlignAvroSchema": true,
			"iceberg.Metadata": true, "iceberg.ParseMetadata": true},
		// Committing a schema: locate and open the table, read and write
		// its metadata.
		"evolve": {"iceberg.FindMetadata": true, "iceberg.Open": true, "iceberg.Table": true, "iceberg.Metadata": true, "iceberg.ParseMetadata": true,
			"paimon.Open": true, "paimon.Table": true},
	}
	planning := map[string]bool{"Plan": true, "PlanTasks": true, "Tasks": true, "NewScan": true, "LSM": true, "MergeSpec": true, "MergeTask": true, "SliceTask": true, "DeletesFor": true}
	for dir, ok := range allowed {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			local := map[string]string{} // import name → table/<fmt>
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				format, found := strings.CutPrefix(path, mod)
				if !found || strings.Contains(format, "/") || (format != "iceberg" && format != "paimon" && format != "hudi") {
					continue
				}
				n := format
				if im.Name != nil {
					n = im.Name.Name
				}
				local[n] = format
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, isSel := n.(*ast.SelectorExpr)
				if !isSel {
					return true
				}
				if id, isID := sel.X.(*ast.Ident); isID {
					if format, imported := local[id.Name]; imported {
						if q := format + "." + sel.Sel.Name; !ok[q] {
							t.Errorf("%s uses %s: table-format logic belongs in table/%s", name, q, format)
						}
						return true
					}
				}
				if planning[sel.Sel.Name] && len(local) > 0 && dir == "evolve" {
					t.Errorf("%s calls .%s: evolve commits schemas, it does not plan scans", name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}
