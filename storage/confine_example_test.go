package storage_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakecat/lakecat/storage"
)

// A table's storage confined to its folder, widened by one shared prefix:
// a path outside both is refused before the file system sees it.
func ExampleConfine() {
	fsys := storage.Confine(storage.OSFS{}, "/wh/t", []string{"s3://shared/data"})
	_, err := fsys.Open(context.Background(), "/etc/passwd")
	fmt.Println(errors.Is(err, storage.ErrPathNotAllowed))
	fmt.Println(err)
	// Output:
	// true
	// storage: /etc/passwd: outside the table location and every allowed prefix: storage: path outside the table's allowed locations
}
