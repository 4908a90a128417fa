// SDL2 (Debian's libsdl2-dev, pkg-config "sdl2"). SDL_MAIN_HANDLED: the viewer has its own
// main and calls SDL_SetMainReady before SDL_Init.
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
