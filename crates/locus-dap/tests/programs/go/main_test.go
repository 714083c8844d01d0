package main

import "testing"

func TestTotal(t *testing.T) {
	got := total([]int{3, 4, 5})
	if got != 12 {
		t.Fatalf("total = %d", got)
	}
}

func TestWrong(t *testing.T) {
	got := total([]int{1})
	if got != 2 {
		t.Fatalf("total = %d", got)
	}
}
