// NameThisGame: ALE's settings are not written for this game yet.
#pragma once
#include "../game_state.h"

namespace cule {

struct NameThisGame : NoSettings {};

}  // namespace cule
