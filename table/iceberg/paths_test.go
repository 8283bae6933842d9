package iceberg

import "testing"

func TestPathMap(t *testing.T) {
	var m PathMap
	for _, s := range []string{"/test-warehouse/=/w/", "/test-warehouse/iceberg_test/=/impala/iceberg_test/"} {
		r, err := ParsePathRule(s)
		if err != nil {
			t.Fatal(err)
		}
		m = append(m, r)
	}
	for in, want := range map[string]string{
		"/test-warehouse/iceberg_test/t/data/a.parq": "/impala/iceberg_test/t/data/a.parq", // longest wins
		"/test-warehouse/other/x":                    "/w/other/x",
		"/elsewhere/x":                               "/elsewhere/x",
	} {
		if got, _ := m.Apply(in); got != want {
			t.Errorf("Apply(%s) = %s, want %s", in, got, want)
		}
	}
	if _, err := ParsePathRule("=x"); err == nil {
		t.Error("ParsePathRule(=x): no error")
	}
	if _, err := ParsePathRule("nothing"); err == nil {
		t.Error("ParsePathRule(nothing): no error")
	}
}

func TestResolver(t *testing.T) {
	for _, tc := range []struct {
		location, root, baseDir string
		pm                      PathMap
		rebase                  bool
		in, want                string
	}{
		{"hdfs://localhost:20500/test-warehouse/t", "/local/t", "", nil, true, "hdfs://localhost:20500/test-warehouse/t/data/a.parquet", "/local/t/data/a.parquet"},
		{"/test-warehouse/t", "/local/t", "", nil, true, "/test-warehouse/t/metadata/m.avro", "/local/t/metadata/m.avro"},
		{"file://data/persistent/m", "/r/data/persistent/m", "", nil, true, "file://data/persistent/m/data/x.parquet", "/r/data/persistent/m/data/x.parquet"},
		{"data/persistent/u", "/r/u", "", nil, true, "data/persistent/u/data/x.parquet", "/r/u/data/x.parquet"},
		// a data file outside the location (column_mapping's ../example/)
		{"data/persistent/c/warehouse/default.db/t", "/r/t", "/r0", nil, true, "data/persistent/c/warehouse/example/mock.parquet", "/r0/data/persistent/c/warehouse/example/mock.parquet"},
		// the path map wins over re-rooting
		{"/test-warehouse/t", "/local/t", "", PathMap{{"/test-warehouse/", "/mapped/"}}, true, "/test-warehouse/t/x", "/mapped/t/x"},
		// rebase off
		{"/test-warehouse/t", "/local/t", "", nil, false, "/test-warehouse/t/x", "/test-warehouse/t/x"},
		{"s3://b/t", "s3://b2/t", "", nil, true, "s3://b/t/data/x", "s3://b2/t/data/x"},
		{"", "", "", nil, true, "file:///abs/x", "/abs/x"},
		// BaseDir derived from a relative location the root ends with
		{"data/persistent/c/warehouse/default.db/t", "/r0/data/persistent/c/warehouse/default.db/t", "", nil, true, "data/persistent/c/warehouse/example/mock.parquet", "/r0/data/persistent/c/warehouse/example/mock.parquet"},
		{"file://data/p/m", "/x/data/p/m", "", nil, true, "file://data/q/y.parquet", "/x/data/q/y.parquet"},
		// another relative path: against the table folder, never the working directory
		{"/wh/t", "/local/t", "", nil, true, "data/a.parquet", "/local/t/data/a.parquet"},
		{"s3://b/t", "s3://b/t", "", nil, true, "metadata/snap-1.avro", "s3://b/t/metadata/snap-1.avro"},
	} {
		r := newResolver(tc.pm, tc.location, tc.root, tc.baseDir, tc.rebase)
		if got := r.resolve(tc.in); got != tc.want {
			t.Errorf("resolve(%s) with location %s = %s, want %s", tc.in, tc.location, got, tc.want)
		}
	}
}
