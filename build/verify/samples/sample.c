#include <stdio.h>
int main(){int x=1;if(x){printf("%d\n",x);}return 0;}
