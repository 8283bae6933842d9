package schema

import (
	"sync"
	"testing"
)

// TestFindByIDConcurrent: the first lookups of a shared schema from many
// goroutines (a scan's workers share one read schema) do not race and all
// find the field. Run with -race.
func TestFindByIDConcurrent(t *testing.T) {
	s := New(0, &Field{ID: 1, Name: "a", Type: Long}, &Field{ID: 2, Name: "b", Type: String})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if f := s.FindByID(2); f == nil || f.Name != "b" {
				t.Errorf("FindByID(2) = %v", f)
			}
		}()
	}
	wg.Wait()
}
