package main

import (
	"fmt"
	"os"
)

func total(items []int) int {
	acc := 0
	for i, item := range items {
		acc += item
		fmt.Printf("iter %d acc=%d\n", i, acc)
	}
	return acc
}

func main() {
	values := []int{3, 4, 5}
	result := total(values)
	fmt.Fprintln(os.Stderr, "done")
	os.Exit(result % 7)
}
