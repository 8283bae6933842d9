// Package testutil holds test helpers shared by lakecat's packages.
package testutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// RepoRoot returns the repository root (the folder holding go.mod).
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("testutil: cannot locate the source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// RealDir returns the folder of real third-party files, ../shared/testdata/real
// beside the repository, joined with elem. When it is absent (a user's clone)
// the test is skipped with a message; under CI=true, where it is always
// present, the test fails instead.
func RealDir(t testing.TB, elem ...string) string {
	t.Helper()
	dir := filepath.Join(append([]string{RepoRoot(t), "..", "shared", "testdata", "real"}, elem...)...)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("real test data missing under CI: %v", err)
		}
		t.Skipf("real test data not present (%v); it lives in ../shared/testdata/real beside the repository", err)
	}
	return dir
}
