package lakecat_test

import (
	"os/exec"
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
