// Crashes on its third item: an uncaught std::invalid_argument, thrown in parse (line 7).
#include <stdexcept>
#include <string>

int parse(const std::string &text) {
  if (text == "x") {
    throw std::invalid_argument("not a number: " + text);
  }
  return std::stoi(text) * 2;
}

int main() {
  const char *items[] = {"1", "2", "x"};
  int total = 0;
  for (const char *item : items) {
    total += parse(item);
  }
  return total;
}
