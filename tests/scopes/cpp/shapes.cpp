#include <cmath>
#include <string>
#include <vector>

namespace geometry {

constexpr double kPi = 3.14159265358979;
//               ^ Namespace:geometry > Variable:kPi

enum class Unit { Millimetre, Inch };
//                            ^ Namespace:geometry > Enum:Unit > EnumMember:Inch

class Shape {
public:
    explicit Shape(std::string name) : name_(std::move(name)) {}
//                                     ^ Namespace:geometry > Class:Shape > Constructor:Shape
    virtual ~Shape() = default;

    virtual double area() const = 0;
    const std::string &name() const { return name_; }
//                                    ^ Namespace:geometry > Class:Shape > Method:name

private:
    std::string name_;
};

template <typename T>
//        ^ Namespace:geometry > Struct:Point
struct Point {
    T x, y;

    T dot(const Point &other) const {
        return x * other.x + y * other.y;
//                 ^ Namespace:geometry > Struct:Point > Method:dot
    }
};

class Circle : public Shape {
public:
    Circle(double radius);
    double area() const override;
    bool operator==(const Circle &other) const;
//       ^ Namespace:geometry > Class:Circle > Method:operator==

private:
    double radius_;
};

Circle::Circle(double radius) : Shape("circle"), radius_(radius) {}

double Circle::area() const {
    auto square = [](double v) { return v * v; };
//       ^ Namespace:geometry > Method:Circle::area
    return kPi * square(radius_);
}

bool Circle::operator==(const Circle &other) const {
    return radius_ == other.radius_;
}

using ShapeList = std::vector<Shape *>;

} // namespace geometry

namespace {
int instances = 0;
//  ^ Namespace:(anonymous namespace) > Variable:instances
}

int main() {
    geometry::Circle c(2.0);
    instances++;
//  ^ Function:main
    return c.area() > 10 ? 0 : 1;
}
