#include "app/main.hpp"

int main(int argc, char** argv) { return nib::app::main(argc, argv); }
