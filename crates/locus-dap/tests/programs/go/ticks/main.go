// Runs for a minute, ticking ten times a second: a Go program to attach to.
package main

import "time"

func main() {
	ticks := 0
	for i := 0; i < 600; i++ {
		ticks++
		time.Sleep(100 * time.Millisecond)
	}
	_ = ticks
}
