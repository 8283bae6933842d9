package reader

import "github.com/lakecat/lakecat/table"

// DeleteCache shares the delete files of tasks read one by one with
// [ReadTask] (TaskOptions.Deletes), as [ScanTasks] shares them between the
// tasks of a scan: a position delete file registered for two or more
// reads ([DeleteCache.Add]) is read once, its positions kept until the
// last of those reads has taken its own, and the key set of an equality
// delete file is built once for every read. A distributed reader that
// reads the row groups or stripes of one task as separate reads (a
// runner's restriction) loads the task's deletes once this way.
//
// What it holds is pinned in the memory bound given to [NewDeleteCache]
// and lives as long as the cache; drop the cache when its reads are done.
// It is safe for concurrent use.
type DeleteCache struct{ c *deleteCache }

// NewDeleteCache returns an empty cache whose equality key sets and
// positions are bounded by memoryBytes (0: no bound but the 256 MiB cap
// on held positions); over it an equality delete read fails with a
// [*KeySetBudgetError] and a position delete file is read by each read
// again.
func NewDeleteCache(memoryBytes int64) *DeleteCache {
	return &DeleteCache{c: &deleteCache{budget: newBudget(memoryBytes)}}
}

// Add registers one coming read of task through the cache: call it once
// per [ReadTask] call to come (for a task read as n units, n times) before
// the first of them, so that each of its position delete files is known
// to be shared.
func (c *DeleteCache) Add(task table.Task) {
	c.c.posMu.Lock()
	defer c.c.posMu.Unlock()
	c.c.countPositionRefs(task)
}
