package com.example.store;
//          ^ Package:com.example.store

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps track of the items in stock.
 */
public class Inventory<T extends Item> {
    public static final int MAX_ITEMS = 100;
//                          ^ Class:Inventory<T> > Constant:MAX_ITEMS
    private final List<T> items = new ArrayList<>();
    private int reads, writes;
//                     ^ Class:Inventory<T> > Field:writes

    public Inventory() {
        this.reads = 0;
//           ^ Class:Inventory<T> > Constructor:Inventory()
    }

    @Override
    public String toString() {
        return "Inventory(" + items.size() + ")";
    }

    public void add(T item, int count) {
        for (int i = 0; i < count; i++) {
            items.add(item);
//          ^ Class:Inventory<T> > Method:add(T, int)
        }
    }

    public static <E> List<E> copyOf(List<E> source, String... tags) {
        return new ArrayList<>(source);
//                 ^ Class:Inventory<T> > Method:copyOf(List<E>, String...) <E>
    }

    public enum Status {
        IN_STOCK,
        SOLD_OUT {
            @Override
            boolean available() { return false; }
//                                ^ Class:Inventory<T> > Enum:Status > EnumMember:SOLD_OUT > Method:available()
        };

        boolean available() { return true; }
    }

    interface Listener {
        void changed(Inventory<?> inventory);
//           ^ Class:Inventory<T> > Interface:Listener > Method:changed(Inventory<?>)
    }

    record Entry(String name, int quantity) {
//                                ^ Class:Inventory<T> > Class:Entry > Field:quantity
        Entry {
            if (quantity < 0) throw new IllegalArgumentException();
//                                      ^ Class:Inventory<T> > Class:Entry > Constructor:Entry(String, int)
        }
    }
}
