// Package orders is the bundled evolved demo table: a small Iceberg
// `orders` table (format v3) with three schema versions and one Parquet data
// file written under each, committed as three snapshots (one per file, each
// recording the schema id it was written with; manifest lists and manifests
// in metadata/ as Avro). `lakecat cat` with no PATH reads its embedded copy;
// `lakecat cat testdata/orders` reads the folder as a table.
//
// Regenerate with `go generate ./testdata/orders` (the go tool skips
// directories named testdata in `./...` patterns, so name the package).
//
// The three schemas (field ids after '#'):
//
//	schema 0: order_id#1 long required, order_name#2 string, order_user_id#3 int,
//	          order_shop_id#4 int, price#5 float, amount#6 decimal(9, 2)
//	schema 1: adds note#7 string, renames order_name → customer, widens
//	          order_shop_id int → long
//	schema 2: moves order_shop_id first, widens price float → double and
//	          amount decimal(9, 2) → decimal(18, 2), drops order_user_id#3,
//	          adds channel#8 string with initial-default "web"
package orders

import "embed"

//go:generate go run ./gen

// FS holds metadata/v1.metadata.json (all three schemas, schema 2 current;
// three snapshots), the manifest lists and manifests, and data/*.parquet.
//
//go:embed metadata data
var FS embed.FS

// MetadataPath is the table metadata file inside FS.
const MetadataPath = "metadata/v1.metadata.json"

// DataFiles are the table's data files inside FS, oldest first.
var DataFiles = []string{
	"data/00000-orders-schema0.parquet",
	"data/00001-orders-schema1.parquet",
	"data/00002-orders-schema2.parquet",
}
