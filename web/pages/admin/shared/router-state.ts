/** Router state that opens License Keys' create dialog on arrival (the dashboard's Generate Key quick action). */
export interface GenerateKeyState {
  openGenerateDialog: true;
}
