// Package analysis holds what tracekit answers about records beyond
// writing them: filter (which records to keep) and stats (calls, errors
// and durations per event, like strace -c). Both work on the normalized
// records of any dialect as record.Writers, so they run on the records
// pipeline as it streams.
package analysis
