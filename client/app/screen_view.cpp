#include "client/app/screen_view.h"

namespace sr::client {

const std::vector<BoardLayout>& ScreenView::layouts() const {
  static const std::vector<BoardLayout> kNone;  // a menu: no boards
  return kNone;
}

}  // namespace sr::client
