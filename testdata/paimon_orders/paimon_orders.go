// Package paimonorders is a generated Paimon primary-key table: the Paimon
// format description's schema example (schema-0: order_id BIGINT NOT NULL
// primary key, order_name STRING, order_user_id BIGINT, order_shop_id
// BIGINT, bucket = 5) and two later schemas (schema-1 renames order_name →
// customer_name and adds quantity INT; schema-2 widens quantity to BIGINT and
// adds note STRING), with one commit of Parquet data files under each and a
// fourth under schema-2 that updates order 3 and deletes order 4. This
// folder is the table: schema/, snapshot/, manifest/ (Avro manifests and
// manifest lists) and bucket-N/.
//
// `lakecat cat testdata/paimon_orders` prints its 11 merged rows (order 3
// updated, order 4 deleted); `lakecat cat testdata/paimon_orders --raw`
// prints the 14 stored rows with their system columns.
//
// Regenerate with `go generate ./testdata/paimon_orders` (the generator is
// table/paimon/paimonwrite/genorders).
package paimonorders

//go:generate go run ../../table/paimon/paimonwrite/genorders
