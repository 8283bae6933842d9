// Package realdata locates the real third-party test files (tables and
// data files written by other implementations, with their expected rows)
// for the tests of every lakecat package. It imports only the standard
// library, so that any package's tests can use it.
//
// The files live outside the module, in ../shared/testdata/real beside the
// repository root, or wherever $LAKECAT_REAL_DATA names. Go's test cache
// does not look at files outside the module: a cached result is reused
// after the folder appears or disappears. Run the tests with -count=1 (the
// README's command and .ci/run do) so that they see the folder as it is.
// The variables read here ($LAKECAT_REAL_DATA, $CI, $LAKECAT_REAL_DATA_LOG)
// are part of the cache key, since the tests read them on every run.
package realdata

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

const (
	// EnvDir names the real data folder when set (default:
	// ../shared/testdata/real beside the repository root).
	EnvDir = "LAKECAT_REAL_DATA"
	// EnvLog names a file to which [Require] appends one line per call,
	// "ran TEST" or "skipped TEST" (TEST: the package folder and the test name), so
	// that a runner can count the tests that read real data.
	EnvLog = "LAKECAT_REAL_DATA_LOG"
)

// Root returns the real data folder, present or not.
func Root() string {
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "testdata", "real")
}

// Present returns Root when it exists, or "".
func Present() string {
	r := Root()
	if st, err := os.Stat(r); err == nil && st.IsDir() {
		return r
	}
	return ""
}

// Require returns Root joined with elem. When that path is absent the
// test is skipped with a message, except under CI=true, where the folder is
// always given and the test fails instead.
func Require(t testing.TB, elem ...string) string {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	dir := filepath.Join(append([]string{Root()}, elem...)...)
	_, err := os.Stat(dir)
	record(t, err == nil)
	if err != nil {
		if ci {
			t.Fatalf("real test data missing under CI: %v", err)
		}
		t.Skipf("real test data not present (%v); it lives in ../shared/testdata/real beside the repository, or in $%s", err, EnvDir)
	}
	return dir
}

var logMu sync.Mutex

// record appends to $LAKECAT_REAL_DATA_LOG whether t found the real data.
func record(t testing.TB, ran bool) {
	path := os.Getenv(EnvLog)
	if path == "" {
		return
	}
	verb := "skipped"
	if ran {
		verb = "ran"
	}
	pkg, _ := os.Getwd() // a test runs in its package's folder
	logMu.Lock()
	defer logMu.Unlock()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Logf("realdata: %v", err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s:%s\n", verb, pkg, t.Name())
}
