using System;
//    ^ <file>
using System.Collections.Generic;

namespace Shop.Orders
{
    public delegate void OrderHandler(Order order);
//                       ^ Namespace:Shop.Orders > Method:OrderHandler(Order)

    public enum OrderState
    {
        Open,
        Shipped = 2,
//      ^ Namespace:Shop.Orders > Enum:OrderState > EnumMember:Shipped
    }

    public interface IOrderStore
    {
        Order Find(int id);
        int Count { get; }
//                  ^ Namespace:Shop.Orders > Interface:IOrderStore > Property:Count
    }

    public class Order : IComparable<Order>
    {
        public const int MaxLines = 50;
        private readonly List<string> _lines = new();
        public event EventHandler? Changed;
//                                 ^ Namespace:Shop.Orders > Class:Order > Event:Changed

        public Order(int id) => Id = id;
//                              ^ Namespace:Shop.Orders > Class:Order > Constructor:Order(int)

        public int Id { get; }

        public decimal Total
        {
            get { return _lines.Count * 2m; }
//                       ^ Namespace:Shop.Orders > Class:Order > Property:Total
        }

        public int CompareTo(Order? other)
        {
            var delta = Id - (other?.Id ?? 0);
//                            ^ Namespace:Shop.Orders > Class:Order > Method:CompareTo(Order?)
            return delta;
        }

        public static Order operator +(Order a, Order b) => a;
//                                                       ^ Namespace:Shop.Orders > Class:Order > Operator:operator +(Order, Order)
    }

    public record struct Money(decimal Amount, string Currency);

    internal static class OrderExtensions
    {
        public static bool IsEmpty<T>(this Order order, T hint) where T : class
        {
            return order.Total == 0;
//                       ^ Namespace:Shop.Orders > Class:OrderExtensions > Method:IsEmpty<T>(Order, T)
        }
    }
}
