namespace nib::ui {}
