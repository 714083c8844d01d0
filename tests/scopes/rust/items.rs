use std::fmt;

pub const MAX_DEPTH: usize = 8;
//        ^ Constant:MAX_DEPTH
static GREETING: &str = "hello";

/// A point in the plane.
#[derive(Debug, Clone)]
pub struct Point {
    pub x: f64,
//      ^ Struct:Point > Field:x
    pub y: f64,
}

pub enum Shape {
    Circle { center: Point, radius: f64 },
//              ^ Enum:Shape > EnumMember:Circle > Field:center
    Square(Point, f64),
}

pub trait Area {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("area {}", self.area())
//         ^ Interface:Area > Method:describe
    }
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Point { x, y }
//         ^ Object:impl Point > Function:new
    }
}

impl Area for Shape {
    fn area(&self) -> f64 {
        match self {
            Shape::Circle { radius, .. } => 3.14 * radius * radius,
            Shape::Square(_, side) => side * side,
//                      ^ Object:impl Area for Shape > Method:area
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Point { x, y } = self;
        write!(f, "({x}, {y})")
//       ^ Object:impl fmt::Display for Point > Method:fmt
    }
}

type Pair<T> = (T, T);
//   ^ TypeParameter:Pair

macro_rules! square {
    ($e:expr) => {
        $e * $e
//      ^ Function:square
    };
}

mod geometry {
    pub fn distance(a: &super::Point, b: &super::Point) -> f64 {
        let dx = a.x - b.x;
        let dy = a.y - b.y;
//        ^ Module:geometry > Function:distance
        (dx * dx + dy * dy).sqrt()
    }
}
