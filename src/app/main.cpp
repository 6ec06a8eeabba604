#include "app/main.hpp"

namespace nib::app {
int main(int, char**) { return 0; }
}  // namespace nib::app
