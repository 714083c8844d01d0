// Crashes on its third item: an unrecovered panic in parse (line 12).
package main

import (
	"fmt"
	"strconv"
)

func parse(text string) int {
	value, err := strconv.Atoi(text)
	if err != nil {
		panic(fmt.Sprintf("not a number: %s", text))
	}
	return value * 2
}

func main() {
	total := 0
	for _, item := range []string{"1", "2", "x"} {
		total += parse(item)
	}
	fmt.Println(total)
}
