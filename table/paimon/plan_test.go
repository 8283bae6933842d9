package paimon

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/storage"
)

// orcIDBug reports the known formats/orc limitation that Paimon ≥1.0 ORC
// manifests trip over: they carry paimon.id="-1" on types without a field
// id, which the decoder rejects instead of reading as "no id".
func orcIDBug(err error) bool {
	return err != nil && strings.Contains(err.Error(), `attribute paimon.id="-1" is not a field id`)
}

// plannedTables are every paimon-cpp table with snapshots, planned without
// the fallback branch: the live data files (path under the table, format,
// schema id, row count, level, bucket, partition values), and the snapshot's
// totalRecordCount, which the row counts must add up to.
var plannedTables = []struct {
	table    string
	branch   string
	snapshot int64
	schemaID int
	files    []string
	rows     int64
}{
	{"orc/append_09.db/append_09", "", 5, 0, []string{
		"f1=10/bucket-0/data-d41fd7d1-b3e4-4905-aad9-b20a780e90a2-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[10]",
		"f1=20/bucket-0/data-db2b44c0-0d73-449d-82a0-4075bd2cb6e3-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[20]",
		"f1=20/bucket-0/data-b913a160-a4d1-4084-af2a-18333c35668e-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[20]",
		"f1=10/bucket-1/data-b9e7c41f-66e8-4dad-b25a-e6e1963becc4-0.orc ORC schema=0 rows=8 level=0 bucket=1 part=[10]",
	}, 11},
	{"orc/append_complex_build_in_fieldid.db/append_complex_build_in_fieldid", "", 1, 0, []string{
		"bucket-0/data-6dac9052-36d8-4950-8f74-b2bbc082e489-0.orc ORC schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 3},
	{"orc/append_complex_data.db/append_complex_data", "", 4, 0, []string{
		"f1=20/bucket-0/data-d39c4ccc-6245-460c-bd70-632bd2b26234-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[20]",
		"f1=20/bucket-1/data-b20718c4-b2e1-4928-b563-11539edc9572-0.orc ORC schema=0 rows=1 level=0 bucket=1 part=[20]",
		"f1=10/bucket-0/data-14a30421-7650-486c-9876-66a1fa4356ff-0.orc ORC schema=0 rows=6 level=0 bucket=0 part=[10]",
	}, 8},
	{"orc/append_table_with_alter_table.db/append_table_with_alter_table", "", 2, 1, []string{
		"key0=0/key1=1/bucket-0/data-2190cec3-ce87-4175-8d19-9268becf4440-0.orc ORC schema=0 rows=3 level=0 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-492ed5ab-4740-4e93-8a0a-79a6893b1770-0.orc ORC schema=0 rows=2 level=0 bucket=0 part=[1 1]",
		"key0=0/key1=1/bucket-0/data-b34cd128-03e3-4e70-ba9c-5dec2183849c-0.orc ORC schema=1 rows=3 level=0 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-13824b84-8572-4a20-b712-c0475d1828b4-0.orc ORC schema=1 rows=2 level=0 bucket=0 part=[1 1]",
	}, 10},
	{"orc/append_table_with_alter_table_build_in_fieldid.db/append_table_with_alter_table_build_in_fieldid", "", 2, 1, []string{
		"key0=0/key1=1/bucket-0/data-35e7027e-b12a-4ebf-ae15-4c0fe8d6a895-0.orc ORC schema=0 rows=3 level=0 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-e3d1a6f0-c5ef-4ba4-bf52-dca99e8c919f-0.orc ORC schema=0 rows=2 level=0 bucket=0 part=[1 1]",
		"key0=0/key1=1/bucket-0/data-ac270e04-7158-4c5e-b432-babe240911bf-0.orc ORC schema=1 rows=3 level=0 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-eb59bfff-0979-4f01-9724-00d4a64be98e-0.orc ORC schema=1 rows=2 level=0 bucket=0 part=[1 1]",
	}, 10},
	{"orc/append_table_with_rt_branch.db/append_table_with_rt_branch", "", 1, 1, []string{
		"dt=20240725/bucket-0/data-41f538b8-796b-4a81-8455-1b8ba10bcd8f-0.orc ORC schema=0 rows=2 level=0 bucket=0 part=[20240725]",
	}, 2},
	{"orc/append_table_with_rt_branch.db/append_table_with_rt_branch", "rt", 1, 1, []string{
		"dt=20240726/bucket-0/data-995c3a5b-6eea-40df-bbc4-64c877e872ba-0.orc ORC branch=rt schema=1 rows=1 level=0 bucket=0 part=[20240726]",
		"dt=20240726/bucket-1/data-dda835f3-df92-4a8f-9677-5174e9f3f208-0.orc ORC branch=rt schema=1 rows=1 level=0 bucket=1 part=[20240726]",
		"dt=20240725/bucket-0/data-4b0416c6-98ab-48d1-b3fa-c22bfa5bfaf9-0.orc ORC branch=rt schema=1 rows=1 level=0 bucket=0 part=[20240725]",
		"dt=20240725/bucket-1/data-3e6fe253-a39e-4860-9efa-452d5d92490b-0.orc ORC branch=rt schema=1 rows=1 level=0 bucket=1 part=[20240725]",
	}, 4},
	{"orc/append_with_bitmap_alter_table.db/append_with_bitmap_alter_table", "", 2, 1, []string{
		"bucket-0/data-68014988-5451-478f-a18a-a1668214cf3d-0.orc ORC schema=0 rows=8 level=0 bucket=0 part=[]",
		"bucket-0/data-a29b7235-760d-4838-881c-39cbef585dd2-0.orc ORC schema=1 rows=4 level=0 bucket=0 part=[]",
	}, 12},
	{"orc/append_with_cast_timestamp.db/append_with_cast_timestamp", "", 1, 1, []string{
		"bucket-0/data-35109ddd-dec0-4c48-b5f5-11d2a23d5dc0-0.orc ORC schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 3},
	{"orc/append_with_multiple_ts_precision_and_timezone.db/append_with_multiple_ts_precision_and_timezone", "", 1, 0, []string{
		"bucket-0/data-3f58c403-1672-49a3-93c0-d90cfff9bd8a-0.orc ORC schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 3},
	{"orc/pk_table_nested_type.db/pk_table_nested_type", "", 2, 0, []string{
		"dt=2025-04-14/hr=10/bucket-0/data-5bee99f2-cfe4-43a3-812c-46f1737ccf72-0.orc ORC schema=0 rows=3 level=0 bucket=0 part=[2025-04-14 10]",
		"dt=2025-04-14/hr=10/bucket-1/data-14ebe798-3e13-4f04-a59f-06e302c8cd86-0.orc ORC schema=0 rows=5 level=0 bucket=1 part=[2025-04-14 10]",
		"dt=2025-04-14/hr=10/bucket-0/data-5bee99f2-cfe4-43a3-812c-46f1737ccf72-1.orc ORC schema=0 rows=1 level=0 bucket=0 part=[2025-04-14 10]",
		"dt=2025-04-14/hr=10/bucket-1/data-14ebe798-3e13-4f04-a59f-06e302c8cd86-1.orc ORC schema=0 rows=3 level=0 bucket=1 part=[2025-04-14 10]",
	}, 12},
	{"orc/pk_table_with_alter_table.db/pk_table_with_alter_table", "", 6, 1, []string{
		"key0=1/key1=1/bucket-0/data-3842c1d6-6b34-4b2c-a648-9e95b4fb941b-0.orc ORC schema=0 rows=7 level=5 bucket=0 part=[1 1]",
		"key0=0/key1=1/bucket-0/data-7b538b91-5dbb-4e16-a639-1b5c0696db8c-0.orc ORC schema=1 rows=3 level=5 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-d6d370f3-242b-45c9-8739-44bf31b2b449-0.orc ORC schema=1 rows=1 level=4 bucket=0 part=[1 1]",
	}, 11},
	{"orc/pk_table_with_mor.db/pk_table_with_mor", "", 3, 4, []string{
		"p0=0/p1=0/bucket-0/data-26dab280-666b-485e-a21c-82091dd22a35-0.orc ORC schema=0 rows=4 level=0 bucket=0 part=[0 0]",
		"p0=0/p1=1/bucket-0/data-481c071f-6294-454d-865d-47f85eefe048-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[0 1]",
		"p0=1/p1=0/bucket-0/data-eb961f52-e8bb-48d7-baf0-2e70a97a2ac3-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[1 0]",
		"p0=0/p1=0/bucket-0/data-26dab280-666b-485e-a21c-82091dd22a35-1.orc ORC schema=0 rows=4 level=0 bucket=0 part=[0 0]",
		"p0=0/p1=1/bucket-0/data-481c071f-6294-454d-865d-47f85eefe048-1.orc ORC schema=0 rows=1 level=0 bucket=0 part=[0 1]",
		"p0=1/p1=0/bucket-0/data-eb961f52-e8bb-48d7-baf0-2e70a97a2ac3-1.orc ORC schema=0 rows=1 level=0 bucket=0 part=[1 0]",
		"p0=0/p1=0/bucket-0/data-b43be386-79ca-40a1-9700-eae7f1211525-0.orc ORC schema=0 rows=1 level=0 bucket=0 part=[0 0]",
	}, 13},
	{"parquet/append_09.db/append_09", "", 5, 0, []string{
		"f1=10/bucket-0/data-46e27d5b-4850-4d1e-abb6-b3aabbbc08cb-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[10]",
		"f1=20/bucket-0/data-b446f78a-2cfb-4b3b-add8-31295d24a277-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[20]",
		"f1=20/bucket-0/data-fd72a479-53ae-42f7-aec0-e982ee555928-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[20]",
		"f1=10/bucket-1/data-c07464e4-18fc-4c37-bd1f-0addedd6853e-0.parquet PARQUET schema=0 rows=8 level=0 bucket=1 part=[10]",
	}, 11},
	{"parquet/append_10.db/append_10", "", 1, 0, []string{
		"f1=10/bucket-0/data-5bfa7ea9-b7d4-48ae-a949-71cca5387c81-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[10]",
		"f1=10/bucket-1/data-3391c855-da3f-4108-b2b5-2e40ab43e48b-0.parquet PARQUET schema=0 rows=3 level=0 bucket=1 part=[10]",
		"f1=20/bucket-0/data-7f0034de-6ceb-4553-b5ec-22e6b5ed5fa3-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[20]",
	}, 5},
	{"parquet/append_complex_build_in_fieldid.db/append_complex_build_in_fieldid", "", 1, 0, []string{
		"bucket-0/data-3570e113-9ede-4c86-bf5d-040085424886-0.parquet PARQUET schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 3},
	{"parquet/append_complex_data.db/append_complex_data", "", 4, 0, []string{
		"f1=20/bucket-0/data-ac0894ca-fc13-49c8-bb22-4556c8ee416c-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[20]",
		"f1=20/bucket-1/data-e0a6a424-e3b0-47ba-b259-d033fc01e87c-0.parquet PARQUET schema=0 rows=1 level=0 bucket=1 part=[20]",
		"f1=10/bucket-0/data-f8754699-0c43-4e53-be00-7e8af1754913-0.parquet PARQUET schema=0 rows=6 level=0 bucket=0 part=[10]",
	}, 8},
	{"parquet/append_table_with_alter_table.db/append_table_with_alter_table", "", 2, 1, []string{
		"key0=0/key1=1/bucket-0/data-512651de-64b5-4a10-8068-65403aaccdb8-0.parquet PARQUET schema=0 rows=3 level=0 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-9dfb749f-0509-4db2-ae7b-1e4448b32165-0.parquet PARQUET schema=0 rows=2 level=0 bucket=0 part=[1 1]",
		"key0=0/key1=1/bucket-0/data-1aaec161-5365-426f-b33d-3cd99a3908f2-0.parquet PARQUET schema=1 rows=3 level=0 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-11b12094-192f-4ad8-92a8-ae8cba5e25ef-0.parquet PARQUET schema=1 rows=2 level=0 bucket=0 part=[1 1]",
	}, 10},
	{"parquet/append_table_with_append_pt_branch.db/append_table_with_append_pt_branch", "", 2, 2, []string{
		"pt=1/bucket-0/data-eefbe5f2-f015-487c-b2ab-141b2b2cffd7-0.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[1]",
		"pt=1/bucket-0/data-43880011-d066-4255-ad65-891d79cde23b-0.parquet PARQUET schema=2 rows=1 level=0 bucket=0 part=[1]",
	}, 2},
	{"parquet/append_table_with_append_pt_branch.db/append_table_with_append_pt_branch", "test", 2, 1, []string{
		"pt=2/bucket-0/data-39204ff8-55b2-497b-8e87-a1c736799eab-0.parquet PARQUET branch=test schema=0 rows=1 level=0 bucket=0 part=[2]",
		"pt=2/bucket-0/data-625b3277-84d3-4320-80b9-89a5075bf5fd-0.parquet PARQUET branch=test schema=1 rows=1 level=0 bucket=0 part=[2]",
	}, 2},
	{"parquet/append_with_bitmap_alter_table.db/append_with_bitmap_alter_table", "", 2, 1, []string{
		"bucket-0/data-da667947-0604-4459-973b-9d364c3953a9-0.parquet PARQUET schema=0 rows=8 level=0 bucket=0 part=[]",
		"bucket-0/data-2efd8477-9fb4-44a6-9a39-901dd5a83b28-0.parquet PARQUET schema=1 rows=4 level=0 bucket=0 part=[]",
	}, 12},
	{"parquet/append_with_cast_timestamp.db/append_with_cast_timestamp", "", 1, 1, []string{
		"bucket-0/data-ac91592e-f1c2-4cbe-adb2-cbfe71764ede-0.parquet PARQUET schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 3},
	{"parquet/append_with_multiple_ts_precision_and_timezone.db/append_with_multiple_ts_precision_and_timezone", "", 1, 0, []string{
		"bucket-0/data-9b8abdde-df4d-4655-bb4c-ffda164ef9d4-0.parquet PARQUET schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 3},
	{"parquet/parquet_append_table.db/parquet_append_table", "", 2, 0, []string{
		"bucket-0/data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-0.parquet PARQUET schema=0 rows=6 level=0 bucket=0 part=[]",
		"bucket-0/data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-1.parquet PARQUET schema=0 rows=3 level=0 bucket=0 part=[]",
	}, 9},
	{"parquet/pk_table_nested_type.db/pk_table_nested_type", "", 2, 0, []string{
		"dt=2025-04-14/hr=10/bucket-0/data-f63238db-a23a-4f18-9211-0835909197cf-0.parquet PARQUET schema=0 rows=3 level=0 bucket=0 part=[2025-04-14 10]",
		"dt=2025-04-14/hr=10/bucket-1/data-c58cbfb1-c5bc-4b51-9c49-af2d4cfcefcb-0.parquet PARQUET schema=0 rows=5 level=0 bucket=1 part=[2025-04-14 10]",
		"dt=2025-04-14/hr=10/bucket-0/data-f63238db-a23a-4f18-9211-0835909197cf-1.parquet PARQUET schema=0 rows=1 level=0 bucket=0 part=[2025-04-14 10]",
		"dt=2025-04-14/hr=10/bucket-1/data-c58cbfb1-c5bc-4b51-9c49-af2d4cfcefcb-1.parquet PARQUET schema=0 rows=3 level=0 bucket=1 part=[2025-04-14 10]",
	}, 12},
	{"parquet/pk_table_with_alter_table.db/pk_table_with_alter_table", "", 6, 1, []string{
		"key0=1/key1=1/bucket-0/data-8969384c-d715-4113-b663-2248c9a8c8d9-0.parquet PARQUET schema=0 rows=7 level=5 bucket=0 part=[1 1]",
		"key0=0/key1=1/bucket-0/data-d7a33230-223e-4d65-8e39-bc7ed26bdd32-0.parquet PARQUET schema=1 rows=3 level=5 bucket=0 part=[0 1]",
		"key0=1/key1=1/bucket-0/data-f2f38e80-7d28-4d51-90b3-c28951e5cdc0-0.parquet PARQUET schema=1 rows=1 level=4 bucket=0 part=[1 1]",
	}, 11},
}

func TestPlanPaimonCpp(t *testing.T) {
	base := cppDir(t)
	ctx := context.Background()
	for _, tc := range plannedTables {
		t.Run(tc.table+"@"+tc.branch, func(t *testing.T) {
			root := base + "/" + tc.table
			tab, err := Open(ctx, storage.OSFS{}, root, tc.branch)
			if err != nil {
				t.Fatal(err)
			}
			s, err := tab.Plan(ctx, ScanOptions{NoFallback: true})
			if orcIDBug(err) {
				t.Skipf("ORC manifest not decodable yet (formats/orc rejects paimon.id=-1): %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Snapshot.ID != tc.snapshot || s.Schema.ID != tc.schemaID {
				t.Errorf("snapshot %d schema %d, want %d and %d", s.Snapshot.ID, s.Schema.ID, tc.snapshot, tc.schemaID)
			}
			var got []string
			var rows int64
			for i := range s.DataFiles {
				got = append(got, fileLine(root, &s.DataFiles[i]))
				rows += s.DataFiles[i].RowCount
			}
			if !reflect.DeepEqual(got, tc.files) {
				t.Errorf("files:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tc.files, "\n     "))
			}
			if rows != tc.rows || s.Snapshot.TotalRecordCount == nil || *s.Snapshot.TotalRecordCount != rows {
				t.Errorf("rows %d, want %d = totalRecordCount %v", rows, tc.rows, s.Snapshot.TotalRecordCount)
			}
		})
	}
}
