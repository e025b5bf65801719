//go:build race

package dialect_test

const raceEnabled = true
